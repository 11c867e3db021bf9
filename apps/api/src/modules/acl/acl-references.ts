import { type AclProtocol, type AclRuleBodyParsed, type FieldError, portsNeedTcpUdp } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { FIELD_MESSAGES } from '#src/lib/field-messages.js';
import { HttpProblem } from '#src/lib/problem.js';
import { AclReferencesRepo } from './acl-references.repo.js';
import type { RuleContent, RuleMember } from './acl-rules.repo.js';

const unique = <T>(list: readonly T[]): T[] => [...new Set(list)];
const lowerUnique = (list: readonly string[]) => unique(list.map((s) => s.toLowerCase()));

const fieldError = (path: string, code: string, params?: Record<string, string | number>): FieldError => ({
  path,
  code,
  message: FIELD_MESSAGES[code] ?? 'Invalid value',
  ...(params ? { params } : {}),
});

/**
 * Resolves what a rule body names (usernames, group names, location, network device and alias
 * ids) to stored ids; a 400 naming each field whose entries do not exist. Also checks the rule's
 * manual selector merged with its component aliases: ports need TCP or UDP there too.
 */
export async function resolveRuleBody(db: Db, body: AclRuleBodyParsed): Promise<RuleContent> {
  const errors: FieldError[] = [];
  const userNames = lowerUnique([...body.allowed_users, ...body.denied_users]);
  const groupNames = lowerUnique([...body.allowed_groups, ...body.denied_groups]);
  const deviceIds = unique([...body.allowed_network_devices, ...body.denied_network_devices]);
  const locationIds = unique(body.locations);
  const aliasIds = unique(body.aliases);

  const { userRows, groupRows, deviceRows, locationRows, aliasRows } = await new AclReferencesRepo(db).lookup({
    userNames,
    groupNames,
    deviceIds,
    locationIds,
    aliasIds,
  });

  const usersByName = new Map(userRows.map((u) => [u.name.toLowerCase(), u]));
  const groupsByName = new Map(groupRows.map((g) => [g.name.toLowerCase(), g]));
  const members = (
    field: string,
    list: readonly string[],
    found: Map<string, { id: number; name: string }>,
    code: string,
    param: string,
    allow: boolean,
  ): RuleMember[] => {
    const out = new Map<number, RuleMember>();
    for (const name of list) {
      const hit = found.get(name.toLowerCase());
      if (hit) out.set(hit.id, { id: hit.id, name: hit.name, allow });
      else errors.push(fieldError(field, code, { [param]: name }));
    }
    return [...out.values()];
  };
  const existing = (field: string, list: readonly number[], found: Set<number>, code: string): number[] => {
    for (const id of unique(list)) if (!found.has(id)) errors.push(fieldError(field, code, { id }));
    return unique(list).filter((id) => found.has(id));
  };

  const deviceSet = new Set(deviceRows.map((d) => d.id));
  const content: RuleContent = {
    name: body.name,
    priority: body.priority,
    enabled: body.enabled,
    expires: body.expires === null ? null : new Date(body.expires),
    allLocations: body.all_locations,
    allowAllUsers: body.allow_all_users,
    denyAllUsers: body.deny_all_users,
    allowAllNetworkDevices: body.allow_all_network_devices,
    denyAllNetworkDevices: body.deny_all_network_devices,
    destinations: unique(body.destinations),
    ports: unique(body.ports),
    protocols: unique(body.protocols),
    locations: existing('locations', locationIds, new Set(locationRows.map((l) => l.id)), 'acl.location_not_found'),
    users: [
      ...members('allowed_users', body.allowed_users, usersByName, 'user.not_found', 'username', true),
      ...members('denied_users', body.denied_users, usersByName, 'user.not_found', 'username', false),
    ],
    groups: [
      ...members('allowed_groups', body.allowed_groups, groupsByName, 'group.not_found', 'name', true),
      ...members('denied_groups', body.denied_groups, groupsByName, 'group.not_found', 'name', false),
    ],
    devices: [
      ...existing('allowed_network_devices', body.allowed_network_devices, deviceSet, 'acl.network_device_not_found').map((id) => ({
        id,
        name: '',
        allow: true,
      })),
      ...existing('denied_network_devices', body.denied_network_devices, deviceSet, 'acl.network_device_not_found').map((id) => ({
        id,
        name: '',
        allow: false,
      })),
    ],
    aliases: existing('aliases', aliasIds, new Set(aliasRows.map((a) => a.id)), 'acl.alias_not_found'),
  };

  const components = aliasRows.filter((a) => a.kind === 'component');
  const ports = [...content.ports, ...components.flatMap((a) => a.ports)];
  const protocols = [...content.protocols, ...components.flatMap((a) => a.protocols as AclProtocol[])];
  if (errors.length === 0 && portsNeedTcpUdp(ports, protocols)) errors.push(fieldError('ports', 'acl.ports_need_tcp_udp'));

  if (errors.length > 0) throw new HttpProblem(400, 'validation.failed', 'The request has invalid fields.', errors);
  return content;
}
