import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The API token format (docs/api.md "Token format"): `pal_<id>_<secret><checksum>`.
 * - `pal_`: a fixed prefix, so secret scanners recognise Palisade tokens;
 * - `<id>`: 12 base62 characters, the non-secret lookup part stored in clear (`api_tokens.token_id`);
 * - `<secret>`: 40 base62 characters from the CSPRNG (~238 bits);
 * - `<checksum>`: CRC32 of everything before it (`pal_<id>_<secret>`), 6 base62 characters,
 *   zero-padded, so scanners and the API reject a mistyped or made-up token without a lookup.
 * Only the SHA-256 of the whole token is stored.
 */
export const TOKEN_PREFIX = 'pal_';
const ID_LENGTH = 12;
const SECRET_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TOKEN_RE = /^pal_([0-9A-Za-z]{12})_([0-9A-Za-z]{40})([0-9A-Za-z]{6})$/;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, length: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

/** `length` uniformly random base62 characters (rejection sampling: no modulo bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export interface NewToken {
  token: string;
  tokenId: string;
  hash: string;
}

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export function generateToken(): NewToken {
  const tokenId = randomBase62(ID_LENGTH);
  const body = `${TOKEN_PREFIX}${tokenId}_${randomBase62(SECRET_LENGTH)}`;
  const token = body + base62(crc32(body), CHECKSUM_LENGTH);
  return { token, tokenId, hash: hashToken(token) };
}

/** The lookup id of a well-formed token with a valid checksum, or undefined. */
export function parseToken(token: string): string | undefined {
  const m = TOKEN_RE.exec(token);
  if (!m) return undefined;
  const body = token.slice(0, token.length - CHECKSUM_LENGTH);
  return base62(crc32(body), CHECKSUM_LENGTH) === m[3] ? m[1] : undefined;
}

/** Constant-time comparison of a presented token with the stored hash. */
export function tokenMatches(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

export const TOKEN_LENGTH = TOKEN_PREFIX.length + ID_LENGTH + 1 + SECRET_LENGTH + CHECKSUM_LENGTH;
