import { x25519 } from '@noble/curves/ed25519.js';

/** WireGuard keys: Curve25519, 32 bytes, standard base64 (44 characters with one `=`). */
const KEY_PATTERN = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** True for a canonical base64 encoding of exactly 32 bytes. */
export function isValidKey(value: unknown): value is string {
  return typeof value === 'string' && KEY_PATTERN.test(value);
}

export interface KeyPair {
  privateKey: string;
  publicKey: string;
}

/** A new keypair from the platform's CSPRNG (Web Crypto in browsers and in Node). */
export function generateKeyPair(): KeyPair {
  const secret = x25519.utils.randomSecretKey();
  return { privateKey: encodeBase64(secret), publicKey: encodeBase64(x25519.getPublicKey(secret)) };
}

export function publicKeyFromPrivate(privateKey: string): string {
  if (!isValidKey(privateKey)) throw new Error('invalid private key');
  return encodeBase64(x25519.getPublicKey(decodeBase64(privateKey)));
}

/** A random 32-byte preshared key (`wg genpsk`). */
export function generatePresharedKey(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(32)));
}
