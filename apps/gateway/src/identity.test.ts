import { describe, expect, it } from 'vitest';
import { gatewayIdentity } from './identity.js';

describe('gatewayIdentity', () => {
  it('is stable for a machine and interface, and differs per interface and per machine', () => {
    const a = gatewayIdentity('wg0', () => 'machine-a\n');
    expect(gatewayIdentity('wg0', () => 'machine-a').gatewayId).toBe(a.gatewayId);
    expect(gatewayIdentity('wg1', () => 'machine-a').gatewayId).not.toBe(a.gatewayId);
    expect(gatewayIdentity('wg0', () => 'machine-b').gatewayId).not.toBe(a.gatewayId);
    expect(a).toMatchObject({ interfaceName: 'wg0', agentVersion: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('falls back to the hostname without /etc/machine-id', () => {
    const id = gatewayIdentity('wg0', () => {
      throw new Error('ENOENT');
    });
    expect(id.gatewayId).toMatch(/^[0-9a-f]{32}$/);
  });
});
