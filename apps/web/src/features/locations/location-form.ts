import type { Network, NetworkBody } from '@palisade/contracts';
import type { FieldIssue, FieldIssues } from '@/lib/field-errors';

/** Form state of a location: numbers stay text while typed; lists are tag inputs. */
// A type alias (not an interface) so it fits the form hook's `Record<string, unknown>` values.
export type LocationFormValues = {
  name: string;
  address: string[];
  endpoint: string;
  port: string;
  dns: string[];
  allowed_ips: string[];
  allowed_groups: string[];
  mfa_enabled: boolean;
  keepalive_interval: string;
  peer_disconnect_threshold: string;
  acl_enabled: boolean;
  acl_default_allow: boolean;
};

export const EMPTY_LOCATION: LocationFormValues = {
  name: '',
  address: [],
  endpoint: '',
  port: '51820',
  dns: [],
  allowed_ips: [],
  allowed_groups: [],
  mfa_enabled: false,
  keepalive_interval: '25',
  peer_disconnect_threshold: '300',
  acl_enabled: false,
  acl_default_allow: false,
};

export function locationToValues(n: Network): LocationFormValues {
  return {
    name: n.name,
    address: [...n.address],
    endpoint: n.endpoint,
    port: String(n.port),
    dns: [...n.dns],
    allowed_ips: [...n.allowed_ips],
    allowed_groups: [...n.allowed_groups],
    mfa_enabled: n.mfa_enabled,
    keepalive_interval: String(n.keepalive_interval),
    peer_disconnect_threshold: String(n.peer_disconnect_threshold),
    acl_enabled: n.acl_enabled,
    acl_default_allow: n.acl_default_allow,
  };
}

/** Empty or non-numeric text becomes a value the schema rejects with "Enter a valid number". */
const toNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** The body candidate; the contracts `NetworkBodySchema` decides whether it is valid. */
export function valuesToBody(v: LocationFormValues): Record<keyof NetworkBody, unknown> {
  return {
    ...v,
    port: toNumber(v.port),
    keepalive_interval: toNumber(v.keepalive_interval),
    peer_disconnect_threshold: toNumber(v.peer_disconnect_threshold),
  };
}

/** A list field's error: the list itself (`address`) or its first bad entry (`address.2`). */
export function listError(errors: FieldIssues, name: string): FieldIssue | undefined {
  if (errors[name]) return errors[name];
  const key = Object.keys(errors).find((k) => k.startsWith(`${name}.`));
  return key ? errors[key] : undefined;
}
