import { parseCidr, parseIp } from '@palisade/wireguard';
import { z } from 'zod';
import { LIMITS, requiredString } from './validation.js';

/**
 * ACL rules and aliases (spec §3, §4, §5, §7; docs/acl.md). Rows are either deployed (`applied`)
 * or pending: a `new` rule never deployed, or a child row (`parent_id` = the deployed row) holding
 * the pending change of a deployed rule (`modified`, `deleted`) or alias (`changed`).
 */
export const ACL_PROTOCOLS = ['tcp', 'udp', 'icmp'] as const;
export type AclProtocol = (typeof ACL_PROTOCOLS)[number];

export const ACL_RULE_STATES = ['new', 'applied', 'modified', 'deleted'] as const;
export type AclRuleState = (typeof ACL_RULE_STATES)[number];
/**
 * Status shown (spec §4): the state, except `enabled`/`disabled` for a pending change whose only
 * difference from the deployed rule is `enabled`, and `expired` for a deployed rule whose
 * `expires` has passed.
 */
export const ACL_RULE_STATUSES = ['new', 'applied', 'modified', 'deleted', 'enabled', 'disabled', 'expired'] as const;
export type AclRuleStatus = (typeof ACL_RULE_STATUSES)[number];

export const ACL_ALIAS_STATES = ['applied', 'changed'] as const;
export type AclAliasState = (typeof ACL_ALIAS_STATES)[number];
export const ACL_ALIAS_KINDS = ['destination', 'component'] as const;
export type AclAliasKind = (typeof ACL_ALIAS_KINDS)[number];

export const ACL_PRIORITY_MAX = 65535;
export const ACL_DEFAULT_PRIORITY = 100;
/** Most entries in one list field (destinations, ports, members, …). */
export const ACL_LIST_MAX = 1000;

/**
 * A destination: a CIDR (`10.1.0.0/16`, `fd00::/64`), a single address (`10.1.0.5`) or a range
 * of one family (`10.1.0.5-10.1.0.9`, low ≤ high). IPv4 and IPv6 may mix in one list.
 */
export function isAclDestination(text: string): boolean {
  const t = text.trim();
  const dash = t.indexOf('-');
  if (dash < 0) return parseCidr(t, true) !== undefined;
  const low = parseIp(t.slice(0, dash));
  const high = parseIp(t.slice(dash + 1));
  return low !== undefined && high !== undefined && low.version === high.version && low.value <= high.value;
}

/** Port `443` or range `8000-8100` (1–65535, low ≤ high). */
export function isAclPort(text: string): boolean {
  const m = /^\s*([0-9]{1,5})\s*(?:-\s*([0-9]{1,5})\s*)?$/.exec(text);
  if (!m) return false;
  const low = Number(m[1]);
  const high = m[2] === undefined ? low : Number(m[2]);
  return low >= 1 && high <= 65535 && low <= high;
}

/** `a - b` → `a-b`, trimmed: the stored form of a destination or a port. */
export const normalizeAclRange = (text: string): string =>
  text
    .trim()
    .split('-')
    .map((s) => s.trim())
    .join('-');

/** Ports apply to TCP and UDP: ports together with ICMP as the only protocol match nothing. */
export const portsNeedTcpUdp = (ports: readonly string[], protocols: readonly string[]): boolean =>
  ports.length > 0 && protocols.length > 0 && protocols.every((p) => p === 'icmp');

const listOf = <T extends z.ZodType>(item: T) =>
  z.array(item, { error: 'invalid_type' }).max(ACL_LIST_MAX, { error: 'max_length' }).default([]);

export const aclDestinationSchema = z
  .string({ error: 'invalid_type' })
  .max(100, { error: 'max_length', abort: true })
  .refine(isAclDestination, { error: 'acl.destination' })
  .transform(normalizeAclRange);
export const aclPortSchema = z
  .string({ error: 'invalid_type' })
  .max(20, { error: 'max_length', abort: true })
  .refine(isAclPort, { error: 'acl.port' })
  .transform(normalizeAclRange);
export const aclProtocolSchema = z.enum(ACL_PROTOCOLS, { error: 'acl.protocol' });
const idSchema = z.number({ error: 'number' }).int({ error: 'number' }).min(1, { error: 'number' }).max(2_147_483_647, { error: 'number' });
const flag = z.boolean({ error: 'invalid_type' }).default(false);

/** A rule or an alias as a list entry elsewhere (affected rules, rules blocking an alias deletion). */
export const AclRuleRefSchema = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'AclRuleRef' });
export type AclRuleRef = z.infer<typeof AclRuleRefSchema>;

export const AclRuleSchema = z
  .object({
    id: z.number().int(),
    /** Set on a pending change of a deployed rule: the deployed rule's id. */
    parent_id: z.number().int().optional(),
    name: z.string(),
    priority: z.number().int(),
    status: z.enum(ACL_RULE_STATUSES),
    state: z.enum(ACL_RULE_STATES),
    enabled: z.boolean(),
    expires: z.string().optional(),
    all_locations: z.boolean(),
    locations: z.array(z.number().int()),
    allow_all_users: z.boolean(),
    allowed_users: z.array(z.string()),
    allowed_groups: z.array(z.string()),
    allow_all_network_devices: z.boolean(),
    allowed_network_devices: z.array(z.number().int()),
    deny_all_users: z.boolean(),
    denied_users: z.array(z.string()),
    denied_groups: z.array(z.string()),
    deny_all_network_devices: z.boolean(),
    denied_network_devices: z.array(z.number().int()),
    destinations: z.array(z.string()),
    ports: z.array(z.string()),
    protocols: z.array(z.enum(ACL_PROTOCOLS)),
    aliases: z.array(z.number().int()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AclRule' });
export type AclRule = z.infer<typeof AclRuleSchema>;
export const AclRuleListSchema = z.array(AclRuleSchema).meta({ id: 'AclRuleList' });

const ruleFields = {
  name: requiredString(LIMITS.nameMax),
  priority: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(0, { error: 'min_value' })
    .max(ACL_PRIORITY_MAX, { error: 'max_value' })
    .default(ACL_DEFAULT_PRIORITY),
  enabled: z.boolean({ error: 'invalid_type' }).default(true),
  /** ISO date-time with offset; null or absent: never expires. */
  expires: z.iso.datetime({ offset: true, error: 'invalid' }).nullable().default(null),
  all_locations: flag,
  locations: listOf(idSchema),
  allow_all_users: flag,
  allowed_users: listOf(z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(LIMITS.usernameMax, { error: 'max_length' })),
  allowed_groups: listOf(
    z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(LIMITS.groupNameMax, { error: 'max_length' }),
  ),
  allow_all_network_devices: flag,
  allowed_network_devices: listOf(idSchema),
  deny_all_users: flag,
  denied_users: listOf(z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(LIMITS.usernameMax, { error: 'max_length' })),
  denied_groups: listOf(
    z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(LIMITS.groupNameMax, { error: 'max_length' }),
  ),
  deny_all_network_devices: flag,
  denied_network_devices: listOf(idSchema),
  destinations: listOf(aclDestinationSchema),
  ports: listOf(aclPortSchema),
  protocols: listOf(aclProtocolSchema),
  aliases: listOf(idSchema),
};

type RuleInput = z.infer<z.ZodObject<typeof ruleFields>>;

/**
 * Cross-field rules of spec §5 (run once every field is valid): `allowDenyConflict` (the same
 * user, group or network device, or the same "all", on both sides), `allowNotConfigured` (no
 * allowed member at all), locations (some, or all), ports with ICMP only.
 */
export function aclRuleIssues(r: RuleInput): { path: string; code: string; params?: Record<string, string | number> }[] {
  const out: { path: string; code: string; params?: Record<string, string | number> }[] = [];
  const conflict = (path: string, allowed: readonly (string | number)[], denied: readonly (string | number)[]) => {
    const allowedSet = new Set(allowed.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)));
    for (const d of denied) {
      if (allowedSet.has(typeof d === 'string' ? d.toLowerCase() : d))
        out.push({ path, code: 'acl.allow_deny_conflict', params: { value: d } });
    }
  };
  if (r.allow_all_users && r.deny_all_users) out.push({ path: 'deny_all_users', code: 'acl.allow_deny_conflict' });
  if (r.allow_all_network_devices && r.deny_all_network_devices)
    out.push({ path: 'deny_all_network_devices', code: 'acl.allow_deny_conflict' });
  conflict('denied_users', r.allowed_users, r.denied_users);
  conflict('denied_groups', r.allowed_groups, r.denied_groups);
  conflict('denied_network_devices', r.allowed_network_devices, r.denied_network_devices);
  const allowsSomeone =
    r.allow_all_users ||
    r.allow_all_network_devices ||
    r.allowed_users.length + r.allowed_groups.length + r.allowed_network_devices.length > 0;
  if (!allowsSomeone) out.push({ path: 'allowed_users', code: 'acl.allow_not_configured' });
  if (!r.all_locations && r.locations.length === 0) out.push({ path: 'locations', code: 'required' });
  if (portsNeedTcpUdp(r.ports, r.protocols)) out.push({ path: 'ports', code: 'acl.ports_need_tcp_udp' });
  return out;
}

/** POST /acl/rule and PUT /acl/rule/{id} (the whole rule; absent optional fields take their defaults). */
export const AclRuleBodySchema = z.strictObject(ruleFields).superRefine((r, ctx) => {
  for (const issue of aclRuleIssues(r)) {
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.code, params: issue.params });
  }
});
export type AclRuleBody = z.input<typeof AclRuleBodySchema>;
export type AclRuleBodyParsed = z.output<typeof AclRuleBodySchema>;

export const AclAliasSchema = z
  .object({
    id: z.number().int(),
    /** Set on a pending change of a deployed alias: the deployed alias's id. */
    parent_id: z.number().int().optional(),
    name: z.string(),
    kind: z.enum(ACL_ALIAS_KINDS),
    state: z.enum(ACL_ALIAS_STATES),
    destinations: z.array(z.string()),
    ports: z.array(z.string()),
    protocols: z.array(z.enum(ACL_PROTOCOLS)),
    /** The deployed rules using the (deployed) alias: what deploying a change of it affects. */
    rules: z.array(AclRuleRefSchema),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AclAlias' });
export type AclAlias = z.infer<typeof AclAliasSchema>;
export const AclAliasListSchema = z.array(AclAliasSchema).meta({ id: 'AclAliasList' });

/** POST /acl/alias and PUT /acl/alias/{id}. An alias selects something: a destination, a port or a protocol. */
export const AclAliasBodySchema = z
  .strictObject({
    name: requiredString(LIMITS.nameMax),
    kind: z.enum(ACL_ALIAS_KINDS, { error: 'invalid' }),
    destinations: listOf(aclDestinationSchema),
    ports: listOf(aclPortSchema),
    protocols: listOf(aclProtocolSchema),
  })
  .superRefine((a, ctx) => {
    if (a.destinations.length + a.ports.length + a.protocols.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['destinations'], message: 'acl.alias_empty' });
    }
    if (portsNeedTcpUdp(a.ports, a.protocols)) ctx.addIssue({ code: 'custom', path: ['ports'], message: 'acl.ports_need_tcp_udp' });
  });
export type AclAliasBody = z.input<typeof AclAliasBodySchema>;
export type AclAliasBodyParsed = z.output<typeof AclAliasBodySchema>;

const idList = (field: string) =>
  z
    .array(idSchema, { error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
    .min(1, { error: 'required' })
    .max(ACL_LIST_MAX * 10, { error: 'max_length' })
    .describe(`ids of pending ${field}`);

/** PUT /acl/rule/apply and PUT /acl/rule/discard: pending rules (new, or a pending change's id). */
export const AclRuleIdsBodySchema = z.strictObject({ rules: idList('rules') });
export type AclRuleIdsBody = z.infer<typeof AclRuleIdsBodySchema>;
/** PUT /acl/alias/apply and PUT /acl/alias/discard: pending alias changes (child ids). */
export const AclAliasIdsBodySchema = z.strictObject({ aliases: idList('aliases') });
export type AclAliasIdsBody = z.infer<typeof AclAliasIdsBodySchema>;

export const AclIdParamsSchema = z.strictObject({ id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });

/** 409 `acl.alias_in_use`: the rules (pending or deployed) that use the alias. */
export const AclAliasInUseProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    code: z.literal('acl.alias_in_use'),
    request_id: z.string().optional(),
    rules: z.array(AclRuleRefSchema),
  })
  .meta({ id: 'AclAliasInUseProblem' });
export type AclAliasInUseProblem = z.infer<typeof AclAliasInUseProblemSchema>;
