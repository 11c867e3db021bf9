import { generateKeyPair } from '@palisade/wireguard';
import { describe, expect, it, vi } from 'vitest';
import { buildDeviceBody } from './device-form';

describe('buildDeviceBody', () => {
  it('generates keys locally and sends only the public key', () => {
    const pair = generateKeyPair();
    const result = buildDeviceBody({ name: 'laptop', keyMode: 'generate', publicKey: '' }, () => pair);
    expect(result).toEqual({ ok: true, body: { name: 'laptop', wireguard_pubkey: pair.publicKey }, keyPair: pair });
    expect(JSON.stringify(result.ok && result.body)).not.toContain(pair.privateKey);
  });

  it('validates an own public key and never generates one', () => {
    const makeKeys = vi.fn(generateKeyPair);
    const bad = buildDeviceBody({ name: 'pc', keyMode: 'own', publicKey: 'not-a-key' }, makeKeys);
    expect(bad).toEqual({ ok: false, errors: { publicKey: { code: 'device.invalid_key', params: {} } } });
    const key = generateKeyPair().publicKey;
    expect(buildDeviceBody({ name: 'pc', keyMode: 'own', publicKey: key }, makeKeys)).toMatchObject({ ok: true, keyPair: undefined });
    expect(makeKeys).not.toHaveBeenCalled();
  });

  it('requires a name', () => {
    expect(buildDeviceBody({ name: ' ', keyMode: 'generate', publicKey: '' })).toMatchObject({
      ok: false,
      errors: { name: { code: 'required' } },
    });
  });
});
