import { isIp, isValidKey } from '@palisade/wireguard';
import { z } from 'zod';
import { PageQuerySchema, paged } from './common.js';
import { LIMITS, requiredString } from './validation.js';

export const wireguardKeySchema = z
  .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
  .trim()
  .refine((v) => isValidKey(v), { error: 'device.invalid_key' });

export const deviceNameSchema = requiredString(LIMITS.groupNameMax);

/** An admin-chosen device address (IPv4 or IPv6, no prefix). */
export const chosenIpSchema = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(64, { error: 'max_length' })
  .refine((v) => isIp(v), { error: 'network.ip_invalid' });

/**
 * Connection data from the stats gateways report (spec §3 Device): the latest handshake
 * (`last_connected_at`), the public address it came from (`last_connected_ip`, host only), when
 * that connection began (`connected_at`, the connection date) and whether it is live: the latest
 * handshake is newer than the location's `peer_disconnect_threshold`. Omitted while never seen.
 */
const connectionFields = {
  last_connected_at: z.string().optional(),
  last_connected_ip: z.string().optional(),
  connected_at: z.string().optional(),
  is_active: z.boolean(),
};

export const DeviceNetworkInfoSchema = z.object({
  network_id: z.number().int(),
  network_name: z.string(),
  /** MFA-protected: the device connects only through a VPN session (POST /vpn_session/start). */
  mfa_enabled: z.boolean(),
  device_wireguard_ips: z.array(z.string()),
  ...connectionFields,
});

/** API.md §3 fixed shape. */
export const DeviceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    wireguard_pubkey: z.string(),
    user_id: z.number().int(),
    username: z.string().optional(),
    created: z.string(),
    networks: z.array(DeviceNetworkInfoSchema).optional(),
    /** Overall: the latest connection over all locations, and whether any is live. */
    ...connectionFields,
    last_connected_location: z.string().optional(),
    last_connected_location_id: z.number().int().optional(),
  })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof DeviceSchema>;

/**
 * A device's place in one location and its rendered config. `config` is omitted for non-admins
 * while manual WireGuard config is disabled (enterprise settings, spec §6).
 */
export const DeviceConfigSchema = z.object({
  network_id: z.number().int(),
  network_name: z.string(),
  assigned_ips: z.array(z.string()),
  config: z.string().optional(),
});
export type DeviceConfig = z.infer<typeof DeviceConfigSchema>;

/** A rendered WireGuard config: the config routes answer it as `text/plain`, not JSON (API.md §3). */
export const WireGuardConfigTextSchema = z
  .string()
  .meta({ description: 'WireGuard config in wg-quick format; its `PrivateKey =` line carries a placeholder the client replaces.' });

export const CreateDeviceBodySchema = z.strictObject({ name: deviceNameSchema, wireguard_pubkey: wireguardKeySchema });
export const UpdateDeviceBodySchema = CreateDeviceBodySchema;
export const CreatedDeviceSchema = z
  .object({
    device: DeviceSchema,
    configs: z.array(DeviceConfigSchema),
    /** True when the configs carry no `config` because manual config is disabled for the caller. */
    config_disabled: z.boolean().optional(),
  })
  .meta({ id: 'CreatedDevice' });
export type CreatedDevice = z.infer<typeof CreatedDeviceSchema>;

export const DeviceIdParamsSchema = z.strictObject({ id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });
export const DeviceConfigParamsSchema = z.strictObject({
  network_id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647),
  device_id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647),
});

export const DeviceListQuerySchema = PageQuerySchema;
export const DeviceListSchema = paged(DeviceSchema).meta({ id: 'DeviceList' });

/** What a network device and a pending (CLI-announced) one have in common. */
const networkDeviceFields = {
  id: z.number().int(),
  name: z.string(),
  location_id: z.number().int(),
  location_name: z.string(),
  assigned_ips: z.array(z.string()),
  description: z.string().optional(),
  added_by: z.string(),
  added_date: z.string(),
};

/** API.md §3 fixed shape. */
export const NetworkDeviceSchema = z
  .object({
    ...networkDeviceFields,
    wireguard_pubkey: z.string(),
    ...connectionFields,
  })
  .meta({ id: 'NetworkDevice' });
export type NetworkDevice = z.infer<typeof NetworkDeviceSchema>;

export const CreateNetworkDeviceBodySchema = z.strictObject({
  name: deviceNameSchema,
  location_id: z.number({ error: 'required' }).int().min(1, { error: 'min_value' }).max(2_147_483_647, { error: 'max_value' }),
  assigned_ips: z.array(chosenIpSchema).max(16).optional(),
  wireguard_pubkey: wireguardKeySchema,
  description: z.string().trim().max(1024, { error: 'max_length' }).optional(),
});
export const UpdateNetworkDeviceBodySchema = z.strictObject({
  name: deviceNameSchema,
  assigned_ips: z.array(chosenIpSchema).min(1).max(16),
  description: z.string().trim().max(1024, { error: 'max_length' }).optional(),
});
export const CreatedNetworkDeviceSchema = z
  .object({ device: NetworkDeviceSchema, config: z.string() })
  .meta({ id: 'CreatedNetworkDevice' });
export const NetworkDeviceListQuerySchema = PageQuerySchema;
export const NetworkDeviceListSchema = paged(NetworkDeviceSchema).meta({ id: 'NetworkDeviceList' });

export const LocationIdParamsSchema = z.strictObject({ locationId: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });
export const LocationParamsSchema = z.strictObject({ location: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });
export const SuggestedIpsSchema = z.object({ ips: z.array(z.string()) });
export const ValidateIpsBodySchema = z.strictObject({ ips: z.array(z.string().max(64)).min(1).max(16) });
export const ValidateIpsResultSchema = z.object({
  results: z.array(z.object({ ip: z.string(), valid: z.boolean(), code: z.string().optional() })),
});

/** CLI enrollment token for a network device: shown once, stored hashed. */
export const CliTokenSchema = z
  .object({ token: z.string(), expires_at: z.string(), enrollment_url: z.string().optional() })
  .meta({ id: 'CliToken' });
export const StartCliBodySchema = z.strictObject({
  name: deviceNameSchema,
  location_id: z.number({ error: 'required' }).int().min(1, { error: 'min_value' }).max(2_147_483_647, { error: 'max_value' }),
  assigned_ips: z.array(chosenIpSchema).max(16).optional(),
  description: z.string().trim().max(1024, { error: 'max_length' }).optional(),
});

/**
 * A network device announced with a CLI token (`POST /device/network/start_cli`) whose client
 * has not enrolled yet: listed with the token's expiry until then, and removable (which revokes
 * the token). `is_expired`: the token can no longer be used.
 */
export const PendingNetworkDeviceSchema = z
  .object({
    ...networkDeviceFields,
    expires_at: z.string(),
    is_expired: z.boolean(),
  })
  .meta({ id: 'PendingNetworkDevice' });
export type PendingNetworkDevice = z.infer<typeof PendingNetworkDeviceSchema>;
export const PendingNetworkDeviceListSchema = z.array(PendingNetworkDeviceSchema).meta({ id: 'PendingNetworkDeviceList' });
