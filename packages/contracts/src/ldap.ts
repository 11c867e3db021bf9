import { z } from 'zod';

/** Which side wins every conflict of an LDAP sync (docs/ldap.md). */
export const LDAP_AUTHORITATIVE_SOURCES = ['ldap', 'palisade'] as const;
export type LdapAuthoritativeSource = (typeof LDAP_AUTHORITATIVE_SOURCES)[number];

/** What a sync does with a Palisade user whose entry left the authoritative LDAP side. */
export const LDAP_REMOVED_USER_BEHAVIORS = ['disable', 'delete'] as const;
export type LdapRemovedUserBehavior = (typeof LDAP_REMOVED_USER_BEHAVIORS)[number];

/** Seconds between two sync runs: at least a minute, at most a week. */
export const LDAP_SYNC_INTERVAL_MIN = 60;
export const LDAP_SYNC_INTERVAL_MAX = 604_800;

const DN_MAX = 1024;
const PEM_MAX = 65_536;

/** An attribute or object class name (RFC 4512 descr) or a numeric OID. */
const ATTRIBUTE_PATTERN = /^([A-Za-z][A-Za-z0-9-]*|[0-9]+(\.[0-9]+)+)$/;

const attribute = z
  .string({ error: 'invalid_type' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(128, { error: 'max_length' })
  .refine((v) => ATTRIBUTE_PATTERN.test(v), { error: 'invalid' });

/** '' or an attribute name. */
const optionalAttribute = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(128, { error: 'max_length' })
  .refine((v) => v === '' || ATTRIBUTE_PATTERN.test(v), { error: 'invalid' });

/** A distinguished name, or '' (not set). Not parsed here: the server is the judge of DN syntax. */
const dn = z.string({ error: 'invalid_type' }).trim().max(DN_MAX, { error: 'max_length' });

/** '' or `ldap://host[:port]` / `ldaps://host[:port]` (a trailing `/` allowed). */
const ldapUrl = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(2048, { error: 'max_length' })
  .refine((v) => v === '' || isLdapUrl(v), { error: 'url.ldap' });

export function isLdapUrl(value: string): boolean {
  const match = /^(ldaps?):\/\/([^/?#\s@]+)\/?$/i.exec(value);
  if (!match) return false;
  try {
    const url = new URL(`http://${match[2]}`);
    return url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** '' (system trust only) or one or more PEM certificates. */
const pemCertificates = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(PEM_MAX, { error: 'max_length' })
  .refine((v) => v === '' || /^(-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\s*)+$/.test(v), {
    error: 'certificate.pem',
  });

/** The LDAP fields of a settings write; each optional (absent keeps the stored value). */
export const ldapSettingsFields = {
  ldap_enabled: z.boolean({ error: 'invalid_type' }).optional(),
  ldap_url: ldapUrl.optional(),
  ldap_bind_username: dn.optional(),
  /** Write-only: absent keeps the stored password, '' removes it. */
  ldap_bind_password: z.string({ error: 'invalid_type' }).max(1024, { error: 'max_length' }).optional(),
  ldap_member_attr: attribute.optional(),
  ldap_username_attr: attribute.optional(),
  ldap_user_obj_class: attribute.optional(),
  ldap_user_auxiliary_obj_classes: z.array(attribute, { error: 'invalid_type' }).max(20, { error: 'max_length' }).optional(),
  ldap_user_search_base: dn.optional(),
  ldap_groupname_attr: attribute.optional(),
  ldap_group_search_base: dn.optional(),
  ldap_group_member_attr: attribute.optional(),
  ldap_group_obj_class: attribute.optional(),
  ldap_sync_enabled: z.boolean({ error: 'invalid_type' }).optional(),
  ldap_authoritative_source: z.enum(LDAP_AUTHORITATIVE_SOURCES, { error: 'invalid' }).optional(),
  ldap_sync_interval: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(LDAP_SYNC_INTERVAL_MIN, { error: 'min_value' })
    .max(LDAP_SYNC_INTERVAL_MAX, { error: 'max_value' })
    .optional(),
  ldap_use_starttls: z.boolean({ error: 'invalid_type' }).optional(),
  ldap_tls_verify_cert: z.boolean({ error: 'invalid_type' }).optional(),
  ldap_tls_ca_cert: pemCertificates.optional(),
  ldap_uses_ad: z.boolean({ error: 'invalid_type' }).optional(),
  ldap_user_rdn_attr: optionalAttribute.optional(),
  ldap_sync_groups: z
    .array(z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(256, { error: 'max_length' }), {
      error: 'invalid_type',
    })
    .max(500, { error: 'max_length' })
    .optional(),
  ldap_removed_user_behavior: z.enum(LDAP_REMOVED_USER_BEHAVIORS, { error: 'invalid' }).optional(),
};

/** The LDAP settings as GET /settings returns them (the bind password only as `_set`). */
export const ldapSettingsView = {
  ldap_enabled: z.boolean(),
  ldap_url: z.string(),
  ldap_bind_username: z.string(),
  /** Whether a bind password is stored; the password itself is never returned. */
  ldap_bind_password_set: z.boolean(),
  ldap_member_attr: z.string(),
  ldap_username_attr: z.string(),
  ldap_user_obj_class: z.string(),
  ldap_user_auxiliary_obj_classes: z.array(z.string()),
  ldap_user_search_base: z.string(),
  ldap_groupname_attr: z.string(),
  ldap_group_search_base: z.string(),
  ldap_group_member_attr: z.string(),
  ldap_group_obj_class: z.string(),
  ldap_sync_enabled: z.boolean(),
  ldap_authoritative_source: z.enum(LDAP_AUTHORITATIVE_SOURCES),
  /** Seconds between sync runs. */
  ldap_sync_interval: z.number().int(),
  ldap_use_starttls: z.boolean(),
  ldap_tls_verify_cert: z.boolean(),
  /** PEM CA certificate(s) trusted for the LDAP server besides the system store; '' = system only. */
  ldap_tls_ca_cert: z.string(),
  ldap_uses_ad: z.boolean(),
  /** The RDN attribute of user entries; '' = the username attribute. */
  ldap_user_rdn_attr: z.string(),
  ldap_sync_groups: z.array(z.string()),
  ldap_removed_user_behavior: z.enum(LDAP_REMOVED_USER_BEHAVIORS),
};

export const DEFAULT_LDAP_SETTINGS = {
  ldap_enabled: false,
  ldap_url: '',
  ldap_bind_username: '',
  ldap_bind_password_set: false,
  ldap_member_attr: 'memberOf',
  ldap_username_attr: 'uid',
  ldap_user_obj_class: 'inetOrgPerson',
  ldap_user_auxiliary_obj_classes: [] as string[],
  ldap_user_search_base: '',
  ldap_groupname_attr: 'cn',
  ldap_group_search_base: '',
  ldap_group_member_attr: 'member',
  ldap_group_obj_class: 'groupOfNames',
  ldap_sync_enabled: false,
  ldap_authoritative_source: 'ldap' as LdapAuthoritativeSource,
  ldap_sync_interval: 300,
  ldap_use_starttls: false,
  ldap_tls_verify_cert: true,
  ldap_tls_ca_cert: '',
  ldap_uses_ad: false,
  ldap_user_rdn_attr: '',
  ldap_sync_groups: [] as string[],
  ldap_removed_user_behavior: 'disable' as LdapRemovedUserBehavior,
};

/** GET /ldap/test: 200 when Palisade reached the server and the bind user signed in. */
export const LdapTestResultSchema = z.object({ success: z.literal(true) }).meta({ id: 'LdapTestResult' });
export type LdapTestResult = z.infer<typeof LdapTestResultSchema>;

/** The detail of a `ldap.connection_rejected` problem starts with this (spec §8), then `: <reason>`. */
export const LDAP_CONNECTION_REJECTED_DETAIL = 'LDAP connection rejected';
