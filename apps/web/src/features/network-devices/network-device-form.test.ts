import { generateKeyPair } from '@palisade/wireguard';
import { describe, expect, it } from 'vitest';
import { buildNetworkDeviceRequest } from './network-device-form';

const base = { name: 'printer', locationId: '2', ips: '10.0.0.9, ', keyMode: 'generate', publicKey: '', description: '' } as const;

describe('buildNetworkDeviceRequest', () => {
  it('creates with a generated public key and the typed IPs', () => {
    const pair = generateKeyPair();
    const request = buildNetworkDeviceRequest(base, () => pair);
    expect(request).toEqual({
      kind: 'create',
      body: { name: 'printer', location_id: 2, assigned_ips: ['10.0.0.9'], wireguard_pubkey: pair.publicKey },
      keyPair: pair,
    });
  });
  it('asks for a CLI token without any key', () => {
    expect(buildNetworkDeviceRequest({ ...base, keyMode: 'cli', ips: '', description: 'rack 3' })).toEqual({
      kind: 'cli',
      body: { name: 'printer', location_id: 2, description: 'rack 3' },
    });
  });
  it('requires a location and a valid own key', () => {
    const request = buildNetworkDeviceRequest({ ...base, locationId: '', keyMode: 'own', publicKey: 'x' });
    expect(request.kind).toBe('invalid');
    if (request.kind === 'invalid') {
      expect(request.errors.location_id?.code).toBe('required');
      expect(request.errors.wireguard_pubkey?.code).toBe('device.invalid_key');
    }
  });
});
