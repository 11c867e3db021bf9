import { afterEach, describe, expect, it } from 'vitest';
import { mintLicence } from '#test/support/licence.js';
import { verifyLicenceKey } from './licence-key.js';
import { PRELOADED_LICENCE_OPTIONS, preloadedLicenceOptions } from './preloaded-options.js';

const slot = globalThis as Record<symbol, unknown>;
afterEach(() => {
  delete slot[PRELOADED_LICENCE_OPTIONS];
});

/** The e2e seam (e2e/support/licence-preload.mjs): absent in production, the test key when preloaded. */
describe('preloaded licence options', () => {
  it('are absent unless something in the process set them', () => {
    expect(preloadedLicenceOptions()).toBeUndefined();
  });

  it('turn the preloaded base64 keys into keys that verify test-signed licences', () => {
    slot[PRELOADED_LICENCE_OPTIONS] = {
      publicKeys: ['MCowBQYDK2VwAyEAOknRmDMoICsWG7L0L7xllhAAOBHnFP3pE2iPboF49SY='],
      freeLimits: { users: null, devices: null, locations: null, gateways: null },
    };
    const options = preloadedLicenceOptions();
    expect(options?.freeLimits).toEqual({ users: null, devices: null, locations: null, gateways: null });
    expect(verifyLicenceKey(mintLicence({ id: 'lic-pre' }), options?.publicKeys ?? []).id).toBe('lic-pre');
  });
});
