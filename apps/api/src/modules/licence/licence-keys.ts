import type { KeyObject } from 'node:crypto';
import type { LicenceLimits } from '@palisade/contracts';
import { publicKeyFromBase64 } from './licence-key.js';

/**
 * The production licence public key (Ed25519, SPKI DER in base64). Its private key is kept by
 * whoever issues Palisade licences and is not in this repository (docs/licensing.md). Nothing in
 * the environment or the database can add another key: only in-process code can (buildApp's
 * `licence` option, used by tests).
 */
export const PRODUCTION_LICENCE_PUBLIC_KEYS: readonly KeyObject[] = [
  publicKeyFromBase64('MCowBQYDK2VwAyEAg51qKb7EPef3WH8lQJmuwuCSs7WSKWvzLXLld0cIKIg='),
];

/** Enterprise features work without a licence while usage stays within these (docs/licensing.md). */
export const FREE_LIMITS: LicenceLimits = { users: 5, devices: 10, locations: 1, gateways: 1 };

/** Days a subscription keeps working after its valid_until (an offline key stops at valid_until). */
export const SUBSCRIPTION_GRACE_DAYS = 14;
