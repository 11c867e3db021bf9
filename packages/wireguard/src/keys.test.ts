import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64, generateKeyPair, isValidKey, publicKeyFromPrivate } from './keys.js';

const hex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16));

describe('keys', () => {
  it('derives the RFC 7748 §6.1 public key from its private key', () => {
    const priv = encodeBase64(hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'));
    const pub = encodeBase64(hex('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a'));
    expect(publicKeyFromPrivate(priv)).toBe(pub);
  });

  it('generates valid, distinct keypairs whose public half matches the private half', () => {
    const a = generateKeyPair();
    const b = generateKeyPair();
    expect(isValidKey(a.privateKey) && isValidKey(a.publicKey)).toBe(true);
    expect(a.privateKey).not.toBe(b.privateKey);
    expect(publicKeyFromPrivate(a.privateKey)).toBe(a.publicKey);
    expect(decodeBase64(a.publicKey)).toHaveLength(32);
  });

  it.each([
    ['', false],
    ['abc', false],
    ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', true],
    ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB=', false], // non-canonical padding bits
    ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', false],
    ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==', false],
    ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-=', false],
  ])('isValidKey(%j) is %s', (key, valid) => {
    expect(isValidKey(key)).toBe(valid);
  });
});
