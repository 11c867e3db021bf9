import { describe, expect, it } from 'vitest';
import { API_TOKEN_PATTERN } from '@palisade/contracts';
import { crc32, generateToken, hashToken, parseToken, TOKEN_LENGTH, tokenMatches } from './token-format.js';

describe('API token format', () => {
  it('is pal_<id>_<secret><checksum> with a valid checksum, matching the contracts pattern', () => {
    const { token, tokenId, hash } = generateToken();
    expect(token).toMatch(API_TOKEN_PATTERN);
    expect(token).toHaveLength(TOKEN_LENGTH);
    expect(token.startsWith(`pal_${tokenId}_`)).toBe(true);
    expect(parseToken(token)).toBe(tokenId);
    expect(hash).toBe(hashToken(token));
    expect(tokenMatches(token, hash)).toBe(true);
    expect(hash).not.toContain(token.slice(17, 57));
  });

  it('crc32 is the standard one (IEEE)', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
  });

  it('refuses a changed character, a wrong checksum, other shapes', () => {
    const { token } = generateToken();
    const i = 20;
    const flipped = token.slice(0, i) + (token[i] === 'a' ? 'b' : 'a') + token.slice(i + 1);
    expect(parseToken(flipped)).toBeUndefined();
    expect(parseToken(`${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`)).toBeUndefined();
    for (const bad of ['', 'pal_', `${token}x`, token.replace('pal_', 'pat_'), ' '.repeat(64)]) expect(parseToken(bad)).toBeUndefined();
    expect(tokenMatches(token, hashToken(flipped))).toBe(false);
    expect(tokenMatches(token, 'zz')).toBe(false);
  });

  it('tokens differ', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateToken().token));
    expect(seen.size).toBe(200);
  });
});
