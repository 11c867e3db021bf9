import { ACL_DEFAULT_PRIORITY, type AclProtocol, type AclRule, type AclRuleBody } from '@palisade/contracts';
import type { FieldIssue, FieldIssues } from '@/lib/field-errors';

/** A chosen user (id = username) or network device (id = its number), with what the picker shows. */
export interface PickerItem {
  id: string;
  label: string;
}

/** The rule form (spec §3 ACL rule): text where the admin types, ids where a picker chooses. */
export type RuleFormValues = {
  name: string;
  priority: string;
  enabled: boolean;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone (a datetime-local input); '' never expires. */
  expires: string;
  all_locations: boolean;
  locations: number[];
  allow_all_users: boolean;
  allowed_users: PickerItem[];
  allowed_groups: string[];
  allow_all_network_devices: boolean;
  allowed_network_devices: PickerItem[];
  deny_all_users: boolean;
  denied_users: PickerItem[];
  denied_groups: string[];
  deny_all_network_devices: boolean;
  denied_network_devices: PickerItem[];
  destinations: string[];
  ports: string[];
  protocols: AclProtocol[];
  aliases: number[];
};

export const EMPTY_RULE: RuleFormValues = {
  name: '',
  priority: String(ACL_DEFAULT_PRIORITY),
  enabled: true,
  expires: '',
  all_locations: true,
  locations: [],
  allow_all_users: false,
  allowed_users: [],
  allowed_groups: [],
  allow_all_network_devices: false,
  allowed_network_devices: [],
  deny_all_users: false,
  denied_users: [],
  denied_groups: [],
  deny_all_network_devices: false,
  denied_network_devices: [],
  destinations: [],
  ports: [],
  protocols: [],
  aliases: [],
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant → the value of a datetime-local input, in the browser's time zone. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value → an ISO instant (null: never); text that is no date stays, for the schema to refuse. */
export function fromLocalInput(local: string): string | null {
  const text = local.trim();
  if (text === '') return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? text : d.toISOString();
}

/** Priority text → a number when it is one; anything else goes as typed, for the schema to refuse. */
const priorityValue = (text: string): number | string => {
  const t = text.trim();
  if (t === '') return ACL_DEFAULT_PRIORITY;
  return /^-?[0-9]+$/.test(t) ? Number(t) : t;
};

const ids = (items: readonly PickerItem[]) => items.map((i) => Number(i.id));
const usernames = (items: readonly PickerItem[]) => items.map((i) => i.id);

/** The request body of POST /acl/rule and PUT /acl/rule/{id}. */
export function ruleBody(v: RuleFormValues): AclRuleBody {
  return {
    name: v.name,
    priority: priorityValue(v.priority) as number,
    enabled: v.enabled,
    expires: fromLocalInput(v.expires),
    all_locations: v.all_locations,
    locations: v.all_locations ? [] : v.locations,
    allow_all_users: v.allow_all_users,
    allowed_users: v.allow_all_users ? [] : usernames(v.allowed_users),
    allowed_groups: v.allow_all_users ? [] : v.allowed_groups,
    allow_all_network_devices: v.allow_all_network_devices,
    allowed_network_devices: v.allow_all_network_devices ? [] : ids(v.allowed_network_devices),
    deny_all_users: v.deny_all_users,
    denied_users: v.deny_all_users ? [] : usernames(v.denied_users),
    denied_groups: v.deny_all_users ? [] : v.denied_groups,
    deny_all_network_devices: v.deny_all_network_devices,
    denied_network_devices: v.deny_all_network_devices ? [] : ids(v.denied_network_devices),
    destinations: v.destinations,
    ports: v.ports,
    protocols: v.protocols,
    aliases: v.aliases,
  };
}

const users = (names: readonly string[]): PickerItem[] => names.map((name) => ({ id: name, label: name }));

/** A rule → the form; `deviceLabel` names a network device by id (its name once loaded). */
export function ruleFormValues(rule: AclRule, deviceLabel: (id: number) => string): RuleFormValues {
  const devices = (list: readonly number[]): PickerItem[] => list.map((id) => ({ id: String(id), label: deviceLabel(id) }));
  return {
    name: rule.name,
    priority: String(rule.priority),
    enabled: rule.enabled,
    expires: toLocalInput(rule.expires),
    all_locations: rule.all_locations,
    locations: [...rule.locations],
    allow_all_users: rule.allow_all_users,
    allowed_users: users(rule.allowed_users),
    allowed_groups: [...rule.allowed_groups],
    allow_all_network_devices: rule.allow_all_network_devices,
    allowed_network_devices: devices(rule.allowed_network_devices),
    deny_all_users: rule.deny_all_users,
    denied_users: users(rule.denied_users),
    denied_groups: [...rule.denied_groups],
    deny_all_network_devices: rule.deny_all_network_devices,
    denied_network_devices: devices(rule.denied_network_devices),
    destinations: [...rule.destinations],
    ports: [...rule.ports],
    protocols: [...rule.protocols],
    aliases: [...rule.aliases],
  };
}

/** The issue of a field, or of its first item that has one (`destinations.2`). */
export function fieldIssue(errors: FieldIssues, name: string): FieldIssue | undefined {
  return errors[name] ?? Object.entries(errors).find(([path]) => path.startsWith(`${name}.`))?.[1];
}

/** The first issue among several fields (the members of one side share one message). */
export const firstIssue = (errors: FieldIssues, names: readonly string[]): FieldIssue | undefined =>
  names.map((name) => fieldIssue(errors, name)).find(Boolean);

export const ALLOWED_FIELDS = [
  'allow_all_users',
  'allowed_users',
  'allowed_groups',
  'allow_all_network_devices',
  'allowed_network_devices',
];
export const DENIED_FIELDS = ['deny_all_users', 'denied_users', 'denied_groups', 'deny_all_network_devices', 'denied_network_devices'];

/** A rule's own body, unchanged (enable/disable sends it with `enabled` switched). */
export const ruleToBody = (rule: AclRule): AclRuleBody => ({
  name: rule.name,
  priority: rule.priority,
  enabled: rule.enabled,
  expires: rule.expires ?? null,
  all_locations: rule.all_locations,
  locations: rule.locations,
  allow_all_users: rule.allow_all_users,
  allowed_users: rule.allowed_users,
  allowed_groups: rule.allowed_groups,
  allow_all_network_devices: rule.allow_all_network_devices,
  allowed_network_devices: rule.allowed_network_devices,
  deny_all_users: rule.deny_all_users,
  denied_users: rule.denied_users,
  denied_groups: rule.denied_groups,
  deny_all_network_devices: rule.deny_all_network_devices,
  denied_network_devices: rule.denied_network_devices,
  destinations: rule.destinations,
  ports: rule.ports,
  protocols: rule.protocols,
  aliases: rule.aliases,
});
