import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { LicenceLimits } from '@palisade/contracts';
import { publicKeyFromBase64 } from '#src/modules/licence/licence-key.js';
import type { LicenceOptions } from '#src/modules/licence/licence.service.js';

/**
 * The TEST licence key pair (docs/licensing.md). Only test apps accept it (buildApp's `licence`
 * option); the built-in production key is another one. scripts/mint-licence.mjs carries the same
 * private key for `--test-key`.
 */
export const TEST_LICENCE_PUBLIC_KEY: KeyObject = publicKeyFromBase64('MCowBQYDK2VwAyEAOknRmDMoICsWG7L0L7xllhAAOBHnFP3pE2iPboF49SY=');
export const TEST_LICENCE_PRIVATE_KEY: KeyObject = createPrivateKey(
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEII9t/4cLGON+xo7ibuqTbnr6PppD2PdB8xd8yYL7c4tX\n-----END PRIVATE KEY-----\n',
);

export const UNLIMITED: LicenceLimits = { users: null, devices: null, locations: null, gateways: null };

/**
 * What createTestApp passes unless a test says otherwise: test-signed keys verify, and no free
 * limit applies, so tests that are not about licensing never meet the enterprise gate.
 */
export const TEST_LICENCE_OPTIONS: LicenceOptions = { publicKeys: [TEST_LICENCE_PUBLIC_KEY], freeLimits: UNLIMITED };

export interface LicencePayload {
  v?: number;
  id?: string;
  customer?: string;
  type?: 'subscription' | 'offline';
  valid_until?: string;
  limits?: Partial<Record<keyof LicenceLimits, number | null>>;
  [extra: string]: unknown;
}

const DAY_MS = 86_400_000;

/** A key in the licence format (`<base64url payload>.<base64url Ed25519 signature>`), signed with `privateKey`. */
export function mintLicence(payload: LicencePayload = {}, privateKey: KeyObject = TEST_LICENCE_PRIVATE_KEY): string {
  const body = {
    v: 1,
    id: 'lic-test-1',
    customer: 'Example Corp',
    type: 'subscription',
    valid_until: new Date(Date.now() + 365 * DAY_MS).toISOString(),
    ...payload,
  };
  const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${encoded}.${sign(null, Buffer.from(encoded, 'ascii'), privateKey).toString('base64url')}`;
}

/** A key pair no build trusts. */
export const strangerKey = (): KeyObject => generateKeyPairSync('ed25519').privateKey;

export const daysFromNow = (days: number): string => new Date(Date.now() + days * DAY_MS).toISOString();
