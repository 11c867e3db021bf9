import { isCidr, isHostname, isIp, parseCidr } from '@palisade/wireguard';
import { z } from 'zod';
import { LIMITS, requiredString } from './validation.js';

/** A network address with netmask (`10.0.0.1/24`); the first is primary for device IPs. */
export const addressWithMaskSchema = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(64, { error: 'max_length' })
  .refine((v) => isCidr(v), { error: 'network.address_with_mask' });

export const endpointSchema = requiredString(253).refine((v) => isIp(v) || isHostname(v), { error: 'network.endpoint' });

export const portSchema = z
  .number({ error: 'number' })
  .int({ error: 'number' })
  .min(1, { error: 'network.port' })
  .max(65535, { error: 'network.max_port' });

export const allowedIpSchema = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(253, { error: 'max_length' })
  .refine((v) => parseCidr(v, true) !== undefined || isHostname(v), { error: 'network.allowed_ip' });

export const dnsEntrySchema = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(253, { error: 'max_length' })
  .refine((v) => isIp(v) || isHostname(v), { error: 'network.dns' });

export const NetworkSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    address: z.array(z.string()),
    endpoint: z.string(),
    port: z.number().int(),
    dns: z.array(z.string()),
    allowed_ips: z.array(z.string()),
    allowed_groups: z.array(z.string()),
    mfa_enabled: z.boolean(),
    keepalive_interval: z.number().int(),
    peer_disconnect_threshold: z.number().int(),
    acl_enabled: z.boolean(),
    acl_default_allow: z.boolean(),
    pubkey: z.string(),
    created_at: z.string(),
    /** Peers of an imported config still waiting to be mapped to users (omitted when none). */
    pending_peers: z.number().int().optional(),
  })
  .meta({ id: 'Network' });
export type Network = z.infer<typeof NetworkSchema>;

const uniqueList = <T extends z.ZodType<string>>(item: T, max: number) =>
  z.array(item, { error: 'invalid_type' }).max(max, { error: 'max_length' });

export const NetworkBodySchema = z.strictObject({
  name: requiredString(LIMITS.groupNameMax),
  address: uniqueList(addressWithMaskSchema, 16).min(1, { error: 'required' }),
  endpoint: endpointSchema,
  port: portSchema,
  dns: uniqueList(dnsEntrySchema, 32).default([]),
  allowed_ips: uniqueList(allowedIpSchema, 256).default([]),
  allowed_groups: uniqueList(z.string().min(1).max(64), 1000).default([]),
  mfa_enabled: z.boolean({ error: 'invalid_type' }).default(false),
  keepalive_interval: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(0, { error: 'min_value' })
    .max(65535, { error: 'max_value' })
    .default(25),
  peer_disconnect_threshold: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(60, { error: 'min_value' })
    .max(86400 * 7, { error: 'max_value' })
    .default(300),
  acl_enabled: z.boolean({ error: 'invalid_type' }).default(false),
  acl_default_allow: z.boolean({ error: 'invalid_type' }).default(false),
});
export type NetworkBody = z.infer<typeof NetworkBodySchema>;

export const NetworkIdParamsSchema = z.strictObject({ id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });

export const ImportNetworkBodySchema = z.strictObject({
  name: requiredString(LIMITS.groupNameMax),
  endpoint: endpointSchema,
  config: z
    .string({ error: 'required' })
    .min(1, { error: 'required' })
    .max(4 * 1024 * 1024, { error: 'max_length' }),
  allowed_groups: uniqueList(z.string().min(1).max(64), 1000).default([]),
});

export const ImportedPeerSchema = z.object({
  wireguard_pubkey: z.string(),
  wireguard_ips: z.array(z.string()),
  /** The existing device with this key, when there is one (it keeps its IPs). */
  device_id: z.number().int().optional(),
  user_id: z.number().int().optional(),
  name: z.string().optional(),
});
export type ImportedPeer = z.infer<typeof ImportedPeerSchema>;

/** GET /network/{id}/devices: the imported peers still waiting to be mapped, in file order. */
export const PendingPeersSchema = z.array(ImportedPeerSchema).meta({ id: 'PendingPeers' });

export const ImportNetworkResultSchema = z
  .object({ network: NetworkSchema, devices: z.array(ImportedPeerSchema) })
  .meta({ id: 'ImportNetworkResult' });

export const MapDevicesBodySchema = z.strictObject({
  devices: z
    .array(
      z.strictObject({
        name: requiredString(LIMITS.groupNameMax),
        wireguard_pubkey: z.string().max(64),
        wireguard_ips: z.array(z.string().max(64)).min(1, { error: 'required' }).max(16),
        user_id: z.number({ error: 'required' }).int().min(1, { error: 'min_value' }).max(2_147_483_647, { error: 'max_value' }),
      }),
    )
    .max(10_000),
});
export type MapDevicesBody = z.infer<typeof MapDevicesBodySchema>;
