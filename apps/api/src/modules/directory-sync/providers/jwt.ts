import { createPrivateKey, type KeyObject, randomUUID, sign } from 'node:crypto';
import { DirectoryError } from './directory-client.js';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The JWS algorithm a private key signs with (RSA keys RS256, P-256 keys ES256). */
function algorithmOf(key: KeyObject): 'RS256' | 'ES256' {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new DirectoryError('The private key must be an RSA or P-256 key');
}

/** Reads a PEM private key (Google key file) or a private JWK (Okta); a bad key is a DirectoryError. */
export function parsePrivateKey(material: string | Record<string, unknown>, what: string): KeyObject {
  try {
    return typeof material === 'string'
      ? createPrivateKey(material)
      : createPrivateKey({ key: material as import('node:crypto').JsonWebKey, format: 'jwk' });
  } catch {
    throw new DirectoryError(`${what} is not a valid private key`);
  }
}

/**
 * A signed JWT (RFC 7519) for the service-account grant (Google) and `private_key_jwt` client
 * authentication (Okta): `iat` now, `exp` after `lifetimeSeconds`, a fresh `jti`.
 */
export function signJwt(key: KeyObject, claims: Record<string, unknown>, options: { kid?: string; lifetimeSeconds?: number } = {}): string {
  const alg = algorithmOf(key);
  const now = Math.floor(Date.now() / 1000);
  const header = { alg, typ: 'JWT', ...(options.kid ? { kid: options.kid } : {}) };
  const payload = { iat: now, exp: now + (options.lifetimeSeconds ?? 300), jti: randomUUID(), ...claims };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const signature = sign('sha256', Buffer.from(input), alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key);
  return `${input}.${b64url(signature)}`;
}
