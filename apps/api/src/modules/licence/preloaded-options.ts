import type { LicenceLimits } from '@palisade/contracts';
import { publicKeyFromBase64 } from './licence-key.js';
import type { LicenceOptions } from './licence.service.js';

/**
 * The end-to-end suite's seam (docs/licensing.md): e2e/support/licence-preload.mjs, loaded with
 * `node --import` in front of the built main.js, leaves licence options under this global symbol
 * before main.ts runs. Only code already running inside the process can set it: no environment
 * variable, setting or file does. (Whoever can load code into the process can change anything in
 * it anyway.) main.ts logs a warning when it is set.
 */
export const PRELOADED_LICENCE_OPTIONS = Symbol.for('palisade.test.licence-options');

interface PreloadedOptions {
  /** Ed25519 public keys, SPKI DER in base64. */
  publicKeys?: string[];
  freeLimits?: LicenceLimits;
}

export function preloadedLicenceOptions(): LicenceOptions | undefined {
  const raw = (globalThis as Record<symbol, unknown>)[PRELOADED_LICENCE_OPTIONS] as PreloadedOptions | undefined;
  if (!raw) return undefined;
  return { publicKeys: raw.publicKeys?.map(publicKeyFromBase64), freeLimits: raw.freeLimits };
}
