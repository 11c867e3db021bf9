/**
 * The compiler's input for one location (docs/acl.md, "How rules are evaluated"). Members are
 * already resolved to device ids by the loader: a rule's allowed side holds its allowed network
 * devices, the devices of its allowed users and of the users in its allowed groups (or of every
 * user / every network device of the location when the rule says "all"); the denied side alike.
 */
export type AclProtocol = 'tcp' | 'udp' | 'icmp';

export interface CompileSources {
  /** Every source: all users and all network devices. `devices` is then empty. */
  any: boolean;
  /** Device ids, ascending and unique. */
  devices: readonly number[];
}

export interface CompileRule {
  id: number;
  priority: number;
  enabled: boolean;
  expires: Date | null;
  destinations: readonly string[];
  /** `"443"` or `"8000-8100"`. */
  ports: readonly string[];
  protocols: readonly AclProtocol[];
  /** Ids of the (deployed) aliases attached to the rule, of both kinds. */
  aliasIds: readonly number[];
  allowed: CompileSources;
  denied: CompileSources;
}

export interface CompileAlias {
  id: number;
  kind: 'destination' | 'component';
  destinations: readonly string[];
  ports: readonly string[];
  protocols: readonly AclProtocol[];
}

export interface CompileDevice {
  id: number;
  /** Host addresses in the location without prefix. */
  addresses: readonly string[];
}

export interface CompileInput {
  aclEnabled: boolean;
  defaultAllow: boolean;
  /** Applied rules that apply to the location (its own or all locations). */
  rules: readonly CompileRule[];
  aliases: ReadonlyMap<number, CompileAlias>;
  /** Devices holding addresses in the location. */
  devices: readonly CompileDevice[];
  now: Date;
}
