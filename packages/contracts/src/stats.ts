import { z } from 'zod';

/**
 * Traffic stats (spec §3 Traffic stats, §7 `/network/stats`, `/network/{id}/stats`,
 * `/network/{id}/stats/users`). Byte counts are from the devices' point of view: `upload` is what
 * a device sent into the tunnel, `download` what it received. Gateway stats are summed per
 * point in time; series are bucketed (`bucket_seconds`) so a window has at most ~120 points.
 */
const MAX_WINDOW_HOURS = 24 * 400;

/** `?from=<UTC ISO timestamp>` (now minus N hours); default one hour ago. */
export const StatsQuerySchema = z.strictObject({
  from: z
    .string({ error: 'invalid_type' })
    .max(40, { error: 'max_length' })
    .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)), {
      error: 'invalid',
    })
    .refine((v) => Date.parse(v) >= Date.now() - MAX_WINDOW_HOURS * 3600_000, { error: 'min_value' })
    .optional(),
});
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

export const TransferPointSchema = z
  .object({ collected_at: z.string(), upload: z.number().int(), download: z.number().int() })
  .meta({ id: 'TransferPoint' });
export type TransferPoint = z.infer<typeof TransferPointSchema>;

export const NetworkStatsSchema = z
  .object({
    from: z.string(),
    bucket_seconds: z.number().int(),
    /** Users / devices with a handshake during the window. */
    active_users: z.number().int(),
    active_user_devices: z.number().int(),
    active_network_devices: z.number().int(),
    /** Connected now: latest handshake newer than the location's `peer_disconnect_threshold`. */
    current_active_users: z.number().int(),
    current_active_user_devices: z.number().int(),
    current_active_network_devices: z.number().int(),
    /** Totals over the window, bytes. */
    upload: z.number().int(),
    download: z.number().int(),
    /** The largest bucket of the series, bytes. */
    peak_upload: z.number().int(),
    peak_download: z.number().int(),
    transfer_series: z.array(TransferPointSchema),
  })
  .meta({ id: 'NetworkStats' });
export type NetworkStats = z.infer<typeof NetworkStatsSchema>;

export const DeviceStatsSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    location_id: z.number().int(),
    location_name: z.string(),
    assigned_ips: z.array(z.string()),
    /** Last endpoint the gateway saw ("host:port") and its host. */
    endpoint: z.string().optional(),
    public_ip: z.string().optional(),
    connected: z.boolean(),
    latest_handshake: z.string().optional(),
    /** When the latest connection began: its first handshake after a gap longer than the location's `peer_disconnect_threshold`. */
    connected_at: z.string().optional(),
    upload: z.number().int(),
    download: z.number().int(),
    stats: z.array(TransferPointSchema),
  })
  .meta({ id: 'DeviceStats' });
export type DeviceStats = z.infer<typeof DeviceStatsSchema>;

export const UserStatsSchema = z
  .object({
    user: z.object({ id: z.number().int(), username: z.string(), first_name: z.string(), last_name: z.string() }),
    upload: z.number().int(),
    download: z.number().int(),
    devices: z.array(DeviceStatsSchema),
  })
  .meta({ id: 'UserStats' });
export type UserStats = z.infer<typeof UserStatsSchema>;

/**
 * `GET /network/{id}/stats/users` (one location) and `GET /network/stats/users` (every location,
 * the Connected users screen): devices active in the window, grouped by user.
 */
export const NetworkUsersStatsSchema = z
  .object({
    from: z.string(),
    bucket_seconds: z.number().int(),
    users: z.array(UserStatsSchema),
    network_devices: z.array(DeviceStatsSchema),
  })
  .meta({ id: 'NetworkUsersStats' });
export type NetworkUsersStats = z.infer<typeof NetworkUsersStatsSchema>;
