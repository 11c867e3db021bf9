import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { disabledModuleOf, isModuleEnabled } from './modules';

const off = { ...DEFAULT_SETTINGS, wireguard_enabled: false };

describe('module visibility', () => {
  it('hides every WireGuard screen while the module is off', () => {
    for (const path of [
      '/locations',
      '/locations/3',
      '/locations/new',
      '/overview',
      '/overview/2',
      '/network-devices',
      '/connected-users',
      '/users/anna/add-device',
      '/acl',
      '/acl/aliases',
      '/acl/rules/new',
    ]) {
      expect(disabledModuleOf(off, path), path).toBe('wireguard');
      expect(disabledModuleOf(DEFAULT_SETTINGS, path), path).toBeUndefined();
    }
  });

  it('hides the webhook screens while the webhooks module is off', () => {
    const webhooksOff = { ...DEFAULT_SETTINGS, webhooks_enabled: false };
    for (const path of ['/webhooks', '/webhooks/3']) {
      expect(disabledModuleOf(webhooksOff, path), path).toBe('webhooks');
      expect(disabledModuleOf(DEFAULT_SETTINGS, path), path).toBeUndefined();
    }
    expect(disabledModuleOf(webhooksOff, '/locations')).toBeUndefined();
  });

  it('hides the OpenID apps screen while the OpenID module is off', () => {
    const openidOff = { ...DEFAULT_SETTINGS, openid_enabled: false };
    expect(disabledModuleOf(openidOff, '/openid-apps')).toBe('openid');
    expect(disabledModuleOf(DEFAULT_SETTINGS, '/openid-apps')).toBeUndefined();
    expect(disabledModuleOf(openidOff, '/webhooks')).toBeUndefined();
  });

  it('leaves the other screens alone', () => {
    for (const path of ['/users', '/users/anna', '/groups', '/settings', '/locationsx'])
      expect(disabledModuleOf(off, path), path).toBeUndefined();
  });

  it('hides nothing before the settings are known', () => {
    expect(isModuleEnabled(undefined, 'wireguard')).toBe(true);
    expect(isModuleEnabled(off, 'wireguard')).toBe(false);
  });
});
