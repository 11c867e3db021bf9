import type { Action } from '#src/reconcile/actions.js';
import type { InterfaceState } from '#src/reconcile/state.js';

/**
 * The agent's view of one WireGuard interface. Implementations: the `wg`/`ip` tools over kernel
 * WireGuard or wireguard-go (adapters/wireguard-*.ts) and an in-memory fake for unit tests.
 */
export type Implementation = 'kernel' | 'userspace';

/** Per-peer counters from `wg show <if> dump`. */
export interface PeerCounters {
  /** `host:port`, `[v6]:port`, or null when the peer was never seen. */
  endpoint: string | null;
  rxBytes: bigint;
  txBytes: bigint;
  /** Unix seconds; 0 = never. */
  latestHandshake: number;
}

export interface Observation {
  state: InterfaceState;
  counters: ReadonlyMap<string, PeerCounters>;
}

export interface WireGuardPort {
  readonly ifname: string;
  /** Known once the interface exists (after the first read or create). */
  implementation(): Implementation | null;
  /** The actual state and counters, read in one pass. */
  read(): Promise<Observation>;
  /** Executes actions in order; rejects on the first failure (the state is then unknown). */
  apply(actions: readonly Action[]): Promise<void>;
}
