import type { AclCheckResult } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';
import type { PickerItem } from './rule-form';

export const CHECK_SOURCE_KINDS = ['user', 'device', 'network_device'] as const;
export type CheckSourceKind = (typeof CHECK_SOURCE_KINDS)[number];
export const CHECK_PROTOCOLS = ['tcp', 'udp', 'icmp'] as const;

/** The "Test access" form: strings as typed, the source as chosen in its picker (at most one). */
export type AccessCheckValues = {
  location: string;
  kind: CheckSourceKind;
  source: PickerItem[];
  destination: string;
  port: string;
  protocol: (typeof CHECK_PROTOCOLS)[number];
};

export const EMPTY_ACCESS_CHECK: AccessCheckValues = { location: '', kind: 'user', source: [], destination: '', port: '', protocol: 'tcp' };

/** The query of GET /acl/check (`source` = `<kind>:<id>`); ICMP has no port; what is not chosen yet is left out. */
export function accessCheckQuery(v: AccessCheckValues): Record<string, string> {
  const source = v.source[0];
  const port = v.protocol === 'icmp' ? '' : v.port.trim();
  const destination = v.destination.trim();
  return {
    ...(v.location ? { location: v.location } : {}),
    ...(source ? { source: `${v.kind}:${source.id}` } : {}),
    ...(destination ? { destination } : {}),
    ...(port ? { port } : {}),
    protocol: v.protocol,
  };
}

/** What decided, in one sentence: a rule (its claim when the source is not its member), the default policy, or no ACL. */
export function decisionKey(result: AclCheckResult): MessageKey {
  if (result.mode === 'unmanaged') return 'acl.check.unmanaged';
  if (result.decided_by.kind === 'default') return `acl.check.default.${result.mode}`;
  if (result.decided_by.firewall_rule_id.endsWith('_claim')) return 'acl.check.byClaim';
  return result.verdict === 'allow' ? 'acl.check.allowedBy' : 'acl.check.deniedBy';
}
