import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomToken, SecretBox, safeEqual, sha256 } from '#src/lib/crypto.js';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips any text, including unicode and the empty string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (plain) => {
        expect(box.decrypt(box.encrypt(plain))).toBe(plain);
      }),
    );
    expect(box.decrypt(box.encrypt(''))).toBe('');
  });

  it('uses a fresh nonce: the same text encrypts differently each time', () => {
    const a = box.encrypt('same secret');
    const b = box.encrypt('same secret');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('same secret');
  });

  it('detects tampering with any byte of nonce, tag or ciphertext', () => {
    const sealed = box.encrypt('location private key');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (let i = 0; i < raw.length; i++) {
      const copy = Buffer.from(raw);
      copy[i] = (copy[i] ?? 0) ^ 0x01;
      expect(() => box.decrypt(`v1.${copy.toString('base64url')}`), `byte ${i}`).toThrow();
    }
    expect(() => box.decrypt(`v1.${raw.subarray(0, raw.length - 1).toString('base64url')}`)).toThrow();
  });

  it('refuses another key, an unknown format and a wrong key size', () => {
    const sealed = box.encrypt('x');
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed)).toThrow();
    expect(() => box.decrypt(sealed.replace(/^v1\./, 'v2.'))).toThrow(/unknown secret format/);
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });

  it('fromSecret derives the same key from the same secret', () => {
    const sealed = SecretBox.fromSecret('a'.repeat(40)).encrypt('hello');
    expect(SecretBox.fromSecret('a'.repeat(40)).decrypt(sealed)).toBe('hello');
    expect(() => SecretBox.fromSecret('b'.repeat(40)).decrypt(sealed)).toThrow();
  });
});

describe('token helpers', () => {
  it('randomToken is url-safe and unique', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => randomToken()));
    expect(tokens.size).toBe(100);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('sha256 is hex and stable; safeEqual compares exactly', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
