import { z } from 'zod';

/** `POST /ldap/sync`: `dry_run` plans without changing either side ("Preview sync"). */
export const LdapSyncBodySchema = z
  .object({ dry_run: z.boolean({ error: 'invalid_type' }).optional() })
  .strict()
  .meta({ id: 'LdapSyncBody' });
export type LdapSyncBody = z.infer<typeof LdapSyncBodySchema>;

export const LDAP_SYNC_SIDES = ['palisade', 'ldap'] as const;
export const LDAP_SYNC_CHANGE_KINDS = [
  'create_user',
  'update_user',
  'link_user',
  'rename_user',
  'disable_user',
  'enable_user',
  'delete_user',
  'create_group',
  'add_member',
  'remove_member',
] as const;
export type LdapSyncChangeKind = (typeof LDAP_SYNC_CHANGE_KINDS)[number];

/** One change of a sync plan, on the side it writes to (docs/ldap.md → Sync). */
export const LdapSyncChangeSchema = z
  .object({
    side: z.enum(LDAP_SYNC_SIDES),
    kind: z.enum(LDAP_SYNC_CHANGE_KINDS),
    /** The user concerned (its name before the change). */
    username: z.string().optional(),
    group: z.string().optional(),
    /** The LDAP entry concerned (before the change; a rename also gives `new_dn`). */
    dn: z.string().optional(),
    new_dn: z.string().optional(),
    /** The attributes an update writes (names only). */
    fields: z.array(z.string()).optional(),
  })
  .meta({ id: 'LdapSyncChange' });
export type LdapSyncChange = z.infer<typeof LdapSyncChangeSchema>;

export const LDAP_SYNC_SKIP_REASONS = ['last_admin', 'no_disabled_state'] as const;

export const LdapSyncSkippedSchema = z
  .object({ username: z.string(), change: z.enum(LDAP_SYNC_CHANGE_KINDS), reason: z.enum(LDAP_SYNC_SKIP_REASONS) })
  .meta({ id: 'LdapSyncSkipped' });

export const LdapSyncFailedSchema = z
  .object({ change: LdapSyncChangeSchema, code: z.string(), message: z.string() })
  .meta({ id: 'LdapSyncFailed' });

/** A sync run or its preview: the plan, and (not a dry run) what was applied. */
export const LdapSyncResultSchema = z
  .object({
    dry_run: z.boolean(),
    authoritative_source: z.enum(['ldap', 'palisade']),
    changes: z.array(LdapSyncChangeSchema),
    skipped: z.array(LdapSyncSkippedSchema),
    /** Changes made (absent in a dry run). */
    applied: z.number().int().optional(),
    failed: z.array(LdapSyncFailedSchema).optional(),
  })
  .meta({ id: 'LdapSyncResult' });
export type LdapSyncResult = z.infer<typeof LdapSyncResultSchema>;
