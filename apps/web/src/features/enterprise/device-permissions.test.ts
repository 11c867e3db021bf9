import { describe, expect, it } from 'vitest';
import { devicePermissions } from './device-permissions';

const all = { admin_device_management: true, disable_all_traffic: true, disable_manual_config: true };
const none = { admin_device_management: false, disable_all_traffic: false, disable_manual_config: false };

describe('devicePermissions', () => {
  it('never restricts administrators', () => {
    expect(devicePermissions(true, all)).toEqual({ canManageDevices: true, canViewConfig: true });
  });
  it('applies the lock and the manual-config switch to other users', () => {
    expect(devicePermissions(false, all)).toEqual({ canManageDevices: false, canViewConfig: false });
    expect(devicePermissions(false, none)).toEqual({ canManageDevices: true, canViewConfig: true });
    expect(devicePermissions(false, { ...none, disable_manual_config: true })).toEqual({ canManageDevices: true, canViewConfig: false });
  });
  it('allows everything while the settings are not loaded (the API still enforces them)', () => {
    expect(devicePermissions(false, undefined)).toEqual({ canManageDevices: true, canViewConfig: true });
  });
});
