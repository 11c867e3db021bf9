import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { LICENCE_TYPES, type LicenceInfo } from '@palisade/contracts';
import { z } from 'zod';

/**
 * A licence key (docs/licensing.md): `<payload>.<signature>`, both base64url without padding.
 * The payload is UTF-8 JSON; the signature is Ed25519 over the payload part exactly as it appears
 * in the key (its ASCII bytes), so no JSON canonicalisation is needed to verify it.
 */
const limit = z.number().int().min(0).nullable().optional();
const PayloadSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(200),
  customer: z.string().min(1).max(200),
  type: z.enum(LICENCE_TYPES),
  valid_until: z.iso.datetime({ offset: true }),
  limits: z.object({ users: limit, devices: limit, locations: limit, gateways: limit }).optional(),
});

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export class LicenceKeyError extends Error {
  constructor(readonly reason: 'malformed' | 'signature' | 'payload') {
    super(`licence key ${reason}`);
    this.name = 'LicenceKeyError';
  }
}

/** An Ed25519 public key from its base64 SPKI DER form (how the built-in keys are written). */
export const publicKeyFromBase64 = (spki: string): KeyObject =>
  createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });

/**
 * The licence a key carries, once its signature verifies with one of `publicKeys`; throws
 * LicenceKeyError otherwise (garbage, a signature by another key, a changed payload).
 */
export function verifyLicenceKey(key: string, publicKeys: readonly KeyObject[]): LicenceInfo {
  const parts = key.trim().split('.');
  if (parts.length !== 2) throw new LicenceKeyError('malformed');
  const [payload, signature] = parts as [string, string];
  if (!BASE64URL.test(payload) || !BASE64URL.test(signature)) throw new LicenceKeyError('malformed');
  const signatureBytes = Buffer.from(signature, 'base64url');
  if (signatureBytes.length !== 64) throw new LicenceKeyError('malformed');
  const signed = Buffer.from(payload, 'ascii');
  if (!publicKeys.some((publicKey) => verify(null, signed, publicKey, signatureBytes))) throw new LicenceKeyError('signature');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new LicenceKeyError('payload');
  }
  const parsed = PayloadSchema.safeParse(json);
  if (!parsed.success) throw new LicenceKeyError('payload');
  const { id, customer, type, valid_until, limits } = parsed.data;
  return {
    id,
    customer,
    type,
    valid_until: new Date(valid_until).toISOString(),
    limits: {
      users: limits?.users ?? null,
      devices: limits?.devices ?? null,
      locations: limits?.locations ?? null,
      gateways: limits?.gateways ?? null,
    },
  };
}
