import type { EnterpriseSettings } from '@palisade/contracts';
import { useAppStore } from '@/features/app/app-store';
import { useAuthStore } from '@/features/auth/auth-store';

export interface DevicePermissions {
  /** Add, edit and delete devices in a user profile. */
  canManageDevices: boolean;
  /** View or download a device's manual WireGuard config. */
  canViewConfig: boolean;
}

/** Spec §6: admins are never locked out; the enterprise switches restrict everyone else. */
export function devicePermissions(isAdmin: boolean, settings: EnterpriseSettings | undefined): DevicePermissions {
  if (isAdmin) return { canManageDevices: true, canViewConfig: true };
  return {
    canManageDevices: !settings?.admin_device_management,
    canViewConfig: !settings?.disable_manual_config,
  };
}

export function useDevicePermissions(): DevicePermissions {
  const isAdmin = useAuthStore((s) => s.user?.is_admin === true);
  const settings = useAppStore((s) => s.enterprise_settings);
  return devicePermissions(isAdmin, settings);
}
