import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { groups, users } from './identity.js';
import { devices, locations } from './networks.js';

/**
 * ACL aliases. An applied alias has `parent_id` null and state `applied`; a pending change of an
 * applied alias that a deployed rule uses is a child row (`parent_id` = the applied alias, state
 * `changed`), at most one per parent. Only applied rows are compiled.
 */
export const aclAliases = pgTable(
  'acl_aliases',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').references((): AnyPgColumn => aclAliases.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['applied', 'changed'] }).notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['destination', 'component'] }).notNull(),
    destinations: text('destinations').array().notNull().default(sql`'{}'::text[]`),
    ports: text('ports').array().notNull().default(sql`'{}'::text[]`),
    protocols: text('protocols').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('acl_aliases_parent_key').on(t.parentId),
    check(
      'acl_aliases_state_check',
      sql`(${t.parentId} is null and ${t.state} = 'applied') or (${t.parentId} is not null and ${t.state} = 'changed')`,
    ),
  ],
);

/**
 * ACL rules. Top-level rows (`parent_id` null) are `new` (never deployed) or `applied`; a pending
 * change of an applied rule is a child row (`modified` or `deleted`), at most one per parent.
 * Deploying a child copies it onto its parent (or deletes the parent) and removes the child.
 */
export const aclRules = pgTable(
  'acl_rules',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').references((): AnyPgColumn => aclRules.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['new', 'applied', 'modified', 'deleted'] }).notNull(),
    name: text('name').notNull(),
    priority: integer('priority').notNull().default(100),
    enabled: boolean('enabled').notNull().default(true),
    expires: timestamp('expires', { withTimezone: true }),
    allLocations: boolean('all_locations').notNull().default(false),
    allowAllUsers: boolean('allow_all_users').notNull().default(false),
    denyAllUsers: boolean('deny_all_users').notNull().default(false),
    allowAllNetworkDevices: boolean('allow_all_network_devices').notNull().default(false),
    denyAllNetworkDevices: boolean('deny_all_network_devices').notNull().default(false),
    destinations: text('destinations').array().notNull().default(sql`'{}'::text[]`),
    ports: text('ports').array().notNull().default(sql`'{}'::text[]`),
    protocols: text('protocols').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('acl_rules_parent_key').on(t.parentId),
    check(
      'acl_rules_state_check',
      sql`(${t.parentId} is null and ${t.state} in ('new', 'applied')) or (${t.parentId} is not null and ${t.state} in ('modified', 'deleted'))`,
    ),
    check('acl_rules_priority_check', sql`${t.priority} between 0 and 65535`),
  ],
);

export const aclRuleLocations = pgTable(
  'acl_rule_locations',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => aclRules.id, { onDelete: 'cascade' }),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.locationId] }), index('acl_rule_locations_location_idx').on(t.locationId)],
);

export const aclRuleUsers = pgTable(
  'acl_rule_users',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => aclRules.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    allow: boolean('allow').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.userId, t.allow] }), index('acl_rule_users_user_idx').on(t.userId)],
);

export const aclRuleGroups = pgTable(
  'acl_rule_groups',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => aclRules.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    allow: boolean('allow').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.groupId, t.allow] }), index('acl_rule_groups_group_idx').on(t.groupId)],
);

/** Network devices only (kind `network`); the API refuses user devices. */
export const aclRuleDevices = pgTable(
  'acl_rule_devices',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => aclRules.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    allow: boolean('allow').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.deviceId, t.allow] }), index('acl_rule_devices_device_idx').on(t.deviceId)],
);

export const aclRuleAliases = pgTable(
  'acl_rule_aliases',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => aclRules.id, { onDelete: 'cascade' }),
    aliasId: integer('alias_id')
      .notNull()
      .references(() => aclAliases.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.aliasId] }), index('acl_rule_aliases_alias_idx').on(t.aliasId)],
);
