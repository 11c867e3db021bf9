import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_LICENCE_PUBLIC_KEY } from '#test/support/licence.js';
import { LicenceKeyError, verifyLicenceKey } from './licence-key.js';
import { PRODUCTION_LICENCE_PUBLIC_KEYS } from './licence-keys.js';

const script = fileURLToPath(new URL('../../../../../scripts/mint-licence.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mint-licence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** scripts/mint-licence.mjs (docs/licensing.md) mints keys in the format the API verifies. */
describe('mint-licence script', () => {
  it('mints a key the test key verifies and the production key refuses', () => {
    const payload = join(dir, 'payload.json');
    writeFileSync(
      payload,
      JSON.stringify({ id: 'lic-9', customer: 'Acme', type: 'offline', valid_until: '2030-01-01T00:00:00Z', limits: { users: 100 } }),
    );
    const key = execFileSync(process.execPath, [script, payload, '--test-key'], { encoding: 'utf8' }).trim();
    expect(verifyLicenceKey(key, [TEST_LICENCE_PUBLIC_KEY])).toEqual({
      id: 'lic-9',
      customer: 'Acme',
      type: 'offline',
      valid_until: '2030-01-01T00:00:00.000Z',
      limits: { users: 100, devices: null, locations: null, gateways: null },
    });
    expect(() => verifyLicenceKey(key, PRODUCTION_LICENCE_PUBLIC_KEYS)).toThrow(LicenceKeyError);
  });
});
