import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  inet,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { groups, users } from './identity.js';

/** A location: one WireGuard network. `addresses[0]` is primary for device IP assignment. */
export const locations = pgTable(
  'locations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    addresses: text('addresses').array().notNull(),
    endpoint: text('endpoint').notNull(),
    port: integer('port').notNull(),
    dns: text('dns').array().notNull().default(sql`'{}'::text[]`),
    allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    keepaliveInterval: integer('keepalive_interval').notNull().default(25),
    peerDisconnectThreshold: integer('peer_disconnect_threshold').notNull().default(300),
    aclEnabled: boolean('acl_enabled').notNull().default(false),
    aclDefaultAllow: boolean('acl_default_allow').notNull().default(false),
    pubkey: text('pubkey').notNull(),
    /** AES-256-GCM sealed (lib/crypto.ts SecretBox). */
    privateKeyEnc: text('private_key_enc').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('locations_name_lower_key').on(sql`lower(${t.name})`)],
);

/** Groups allowed to use a location; none means every user. */
export const locationGroups = pgTable(
  'location_groups',
  {
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.groupId] }), index('location_groups_group_idx').on(t.groupId)],
);

/**
 * User devices (kind `user`, owned by `user_id`, joined to every location the user may use) and
 * network devices (kind `network`, bound to `location_id`, added by an admin).
 */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['user', 'network'] }).notNull(),
    name: text('name').notNull(),
    wireguardPubkey: text('wireguard_pubkey').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    locationId: integer('location_id').references(() => locations.id, { onDelete: 'cascade' }),
    description: text('description'),
    addedBy: text('added_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_pubkey_key').on(t.wireguardPubkey),
    uniqueIndex('devices_user_name_key').on(t.userId, sql`lower(${t.name})`).where(sql`${t.kind} = 'user'`),
    uniqueIndex('devices_network_name_key').on(sql`lower(${t.name})`).where(sql`${t.kind} = 'network'`),
    index('devices_user_idx').on(t.userId),
    index('devices_location_idx').on(t.locationId),
    // Paged lists filter by kind and walk newest first: kind leads, so neither kind's page scans the other's rows.
    index('devices_kind_created_idx').on(t.kind, t.createdAt, t.id),
    check(
      'devices_kind_owner_check',
      sql`(${t.kind} = 'user' and ${t.userId} is not null) or (${t.kind} = 'network' and ${t.locationId} is not null)`,
    ),
  ],
);

/** One row per device address in a location; the unique key makes double allocation impossible. */
export const deviceIps = pgTable(
  'device_ips',
  {
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    ip: inet('ip').notNull(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'device_ips_location_ip_pk', columns: [t.locationId, t.ip] }),
    index('device_ips_device_idx').on(t.deviceId, t.locationId),
  ],
);

/**
 * Per location network, the high-water mark of allocation: every assignable address below
 * `next_ip` is taken, except those listed in `ip_free_holes` (freed later; kept by triggers).
 */
export const ipAllocationCursors = pgTable(
  'ip_allocation_cursors',
  {
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    nextIp: inet('next_ip').notNull(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.network] })],
);

/** Free addresses below a network's high-water mark; allocation takes the lowest first. */
export const ipFreeHoles = pgTable(
  'ip_free_holes',
  {
    locationId: integer('location_id').notNull(),
    network: text('network').notNull(),
    ip: inet('ip').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.locationId, t.network, t.ip] }),
    foreignKey({
      columns: [t.locationId, t.network],
      foreignColumns: [ipAllocationCursors.locationId, ipAllocationCursors.network],
    }).onDelete('cascade'),
  ],
);

/**
 * Peers of an imported WireGuard server config that are not mapped to users yet. The import's
 * "Map devices" step reads them back (an abandoned wizard resumes), mapping removes them, and
 * automatic IP allocation skips their addresses so they stay free for their peers.
 */
export const importPendingPeers = pgTable(
  'import_pending_peers',
  {
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    wireguardPubkey: text('wireguard_pubkey').notNull(),
    wireguardIps: text('wireguard_ips').array().notNull().default(sql`'{}'::text[]`),
    /** Order of the peer in the imported file. */
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.wireguardPubkey] })],
);

/** One-time enrollment tokens for network devices configured from the CLI; stored hashed. */
export const cliTokens = pgTable('cli_tokens', {
  id: serial('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  deviceId: integer('device_id').references(() => devices.id, { onDelete: 'cascade' }),
  spec: jsonb('spec').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
