import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { devices, locations } from './networks.js';

/**
 * Gateway control plane state (ADR-002, ARCHITECTURE §5).
 *
 * - `gateway_location_state`: per location, the revision of its desired state (bumped once per
 *   committed transaction that changes it, by the triggers of migration 00xx_gateway_change_log)
 *   within `revision_epoch`, the oldest revision still resumable from the change log
 *   (`log_floor`), and the gateway token (sha256 for lookup, sealed copy so admins can read it
 *   again).
 * - `gateway_changes`: the change log. A row names what changed at a revision (a peer by public
 *   key, the interface, or everything); the content is read from the current tables when the
 *   delta is built, so a delta is never older than its revision.
 * - `gateways`: one row per gateway (location + the agent's id): what it said in its hello, its
 *   live stream and the last revision it acknowledged.
 */
export const gatewayLocationState = pgTable('gateway_location_state', {
  locationId: integer('location_id')
    .primaryKey()
    .references(() => locations.id, { onDelete: 'cascade' }),
  revision: bigint('revision', { mode: 'bigint' }).notNull().default(sql`1`),
  revisionEpoch: text('revision_epoch').notNull(),
  logFloor: bigint('log_floor', { mode: 'bigint' }).notNull().default(sql`0`),
  tokenHash: text('token_hash').unique(),
  tokenEnc: text('token_enc'),
  tokenCreatedAt: timestamp('token_created_at', { withTimezone: true }),
});

export const gatewayChanges = pgTable(
  'gateway_changes',
  {
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    revision: bigint('revision', { mode: 'bigint' }).notNull(),
    kind: text('kind', { enum: ['peer', 'interface', 'full', 'fw_rule', 'fw_member', 'fw_full'] }).notNull(),
    /**
     * The peer's public key; '' for `interface`, `full` and `fw_full`; the ACL rule id for
     * `fw_rule` (`<rule>/<alias>` when that alias's parts must go too); the device id for
     * `fw_member` (migration 0024).
     */
    key: text('key').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.revision, t.kind, t.key] }), index('gateway_changes_created_idx').on(t.createdAt)],
);

export const gateways = pgTable(
  'gateways',
  {
    id: serial('id').primaryKey(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    gatewayId: text('gateway_id').notNull(),
    name: text('name').notNull(),
    hostname: text('hostname').notNull(),
    version: text('version').notNull(),
    interfaceName: text('interface_name').notNull().default(''),
    implementation: text('implementation', { enum: ['kernel', 'userspace', 'unknown'] })
      .notNull()
      .default('unknown'),
    /** Id of the live stream holding this gateway; null when disconnected. */
    streamId: text('stream_id'),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    disconnectedAt: timestamp('disconnected_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    acknowledgedRevision: bigint('acknowledged_revision', { mode: 'bigint' }).notNull().default(sql`0`),
    acknowledgedEpoch: text('acknowledged_epoch').notNull().default(''),
    state: text('state', { enum: ['synced', 'resyncing', 'degraded', 'unknown'] })
      .notNull()
      .default('unknown'),
    statusMessage: text('status_message'),
    peerCount: integer('peer_count'),
    /**
     * When the disconnect mail of the current disconnection was queued (modules/gateway-notifications);
     * cleared when the gateway is back. Null: no mail sent for this gateway's state.
     */
    disconnectNotifiedAt: timestamp('disconnect_notified_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('gateways_location_gateway_key').on(t.locationId, t.gatewayId)],
);

/**
 * Peer counters as gateways report them (cumulative WireGuard counters; per-interval deltas are
 * computed by the stats queries). No foreign keys: rows are written in large batches and purged
 * by age (`STATS_RETENTION_DAYS`); queries join the live tables, so rows of deleted devices fade.
 * `upload` is what the device sent (the gateway's rx), `download` what it received (tx).
 */
export const peerStats = pgTable(
  'peer_stats',
  {
    locationId: integer('location_id').notNull(),
    deviceId: integer('device_id').notNull(),
    gatewayId: integer('gateway_id').notNull(),
    collectedAt: timestamp('collected_at', { withTimezone: true }).notNull(),
    upload: bigint('upload', { mode: 'number' }).notNull(),
    download: bigint('download', { mode: 'number' }).notNull(),
    latestHandshake: timestamp('latest_handshake', { withTimezone: true }),
    endpoint: text('endpoint'),
  },
  (t) => [
    index('peer_stats_location_time_idx').on(t.locationId, t.collectedAt),
    index('peer_stats_time_idx').on(t.collectedAt),
    // One device at one location over a recent window: the VPN session expiry (handshakes, counters).
    index('peer_stats_device_time_idx').on(t.deviceId, t.locationId, t.collectedAt),
  ],
);

/**
 * Per device and location, the latest handshake a gateway reported, the endpoint it came from
 * and when the current (or last) connection began: a gap between two reported handshakes longer
 * than the location's `peer_disconnect_threshold` starts a new connection. Kept by a statement
 * trigger on `peer_stats` inserts (migration 0010), so device lists read one row per device and
 * location instead of scanning the stats; survives the stats retention.
 */
export const deviceConnections = pgTable(
  'device_connections',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    latestHandshake: timestamp('latest_handshake', { withTimezone: true }).notNull(),
    endpoint: text('endpoint'),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.locationId] })],
);

/**
 * How far the ACL expiry job has swept (one row): rules whose `expires` falls after
 * `swept_until` and up to now get a `fw_rule` change on its next run, so a gateway stops
 * applying an expired rule within seconds, also after the API was down.
 */
export const gatewayAclExpiry = pgTable(
  'gateway_acl_expiry',
  {
    id: integer('id').primaryKey().default(1),
    sweptUntil: timestamp('swept_until', { withTimezone: true }).notNull(),
  },
  (t) => [check('gateway_acl_expiry_single_row', sql`${t.id} = 1`)],
);
