import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { insertFirstKeys, insertRotatedKeys, keysSince, type NewSigningKey } from './signing-keys.repo.js';

export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** ID tokens live this long (provider ttl.IdToken); a retired key stays published as long again. */
export const ID_TOKEN_TTL_SECONDS = 3600;
/** Default wait between publishing a rotated key and signing with it: relying parties refetch JWKS. */
export const DEFAULT_PUBLISH_AHEAD_SECONDS = 24 * 3600;

export interface ProviderJwk {
  kid: string;
  alg: SigningAlg;
  use: 'sig';
  kty: string;
  /** `['verify']` for a key that is published but does not sign (not yet active, or retired). */
  key_ops?: string[];
  [field: string]: unknown;
}

function generateJwk(alg: SigningAlg): Record<string, unknown> {
  const pair = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return pair.privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
}

function newKeys(secrets: SecretBox, activatesAt: Date): NewSigningKey[] {
  return SIGNING_ALGS.map((alg) => ({
    kid: randomUUID(),
    alg,
    privateJwkEnc: secrets.encrypt(JSON.stringify(generateJwk(alg))),
    activatesAt,
  }));
}

/** First start: one RS256 and one ES256 key, once across replicas. */
export async function ensureSigningKeys(db: Db, secrets: SecretBox): Promise<void> {
  await insertFirstKeys(db, () => newKeys(secrets, new Date()));
}

/**
 * Rotation: a new RS256 and ES256 key, published at once and signing from `now + publishAhead`;
 * the keys signing now stop then, and stay published until the ID tokens they signed have expired.
 * Every replica picks the change up within a minute (OidcHost reloads the keys).
 */
export async function rotateSigningKeys(
  db: Db,
  secrets: SecretBox,
  publishAheadSeconds = DEFAULT_PUBLISH_AHEAD_SECONDS,
): Promise<{ activatesAt: Date; kids: string[] }> {
  const activatesAt = new Date(Date.now() + publishAheadSeconds * 1000);
  const keys = newKeys(secrets, activatesAt);
  await insertRotatedKeys(db, activatesAt, keys);
  return { activatesAt, kids: keys.map((k) => k.kid) };
}

/**
 * The provider's key set at `now`: keys signing now first (newest first per alg), then the
 * published-only ones marked `key_ops: ['verify']`. Keys retired longer than an ID token's
 * lifetime are left out.
 */
export async function loadProviderJwks(db: Db, secrets: SecretBox, now = new Date()): Promise<ProviderJwk[]> {
  const cutoff = new Date(now.getTime() - ID_TOKEN_TTL_SECONDS * 1000);
  const rows = await keysSince(db, cutoff);
  const signing = new Set<string>();
  const keys = rows.map((row) => {
    const alg = row.alg as SigningAlg;
    const signsNow = row.activatesAt <= now && (!row.retiresAt || row.retiresAt > now) && !signing.has(alg);
    if (signsNow) signing.add(alg);
    const jwk = JSON.parse(secrets.decrypt(row.privateJwkEnc)) as Record<string, unknown>;
    return { ...jwk, kid: row.kid, alg, use: 'sig', ...(signsNow ? {} : { key_ops: ['verify'] }) } as ProviderJwk;
  });
  return [...keys.filter((k) => !k.key_ops), ...keys.filter((k) => k.key_ops)];
}

/** A stable fingerprint of a key set (kid and role), to tell when the provider must be rebuilt. */
export function jwksFingerprint(keys: ProviderJwk[]): string {
  return keys.map((k) => `${k.kid}:${k.key_ops ? 'v' : 's'}`).join(',');
}
