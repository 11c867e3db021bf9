import type { Implementation, Observation, PeerCounters, WireGuardPort } from '#src/ports/wireguard.js';
import type { Action } from '#src/reconcile/actions.js';
import { applyActions } from '#src/reconcile/apply.js';
import { absentInterface, type InterfaceState } from '#src/reconcile/state.js';

/**
 * In-memory WireGuardPort for unit tests: its "kernel" is `applyActions`. It records every batch
 * of actions, keeps per-peer counters that a test can bump (as traffic would), resets a peer's
 * counters when the peer is removed and re-added (as WireGuard does), and can be told to fail.
 */
export interface FakeWireGuard extends WireGuardPort {
  state: InterfaceState;
  readonly applied: Action[][];
  counters: Map<string, PeerCounters>;
  failNextApply(error: Error): void;
  reads: number;
}

const zeroCounters = (): PeerCounters => ({ endpoint: null, rxBytes: 0n, txBytes: 0n, latestHandshake: 0 });

export function createFakeWireGuard(ifname = 'wg0', initial: InterfaceState = absentInterface()): FakeWireGuard {
  let failure: Error | undefined;
  const fake: FakeWireGuard = {
    ifname,
    state: initial,
    applied: [],
    counters: new Map([...initial.peers.keys()].map((k) => [k, zeroCounters()])),
    reads: 0,
    implementation: (): Implementation | null => (fake.state.exists ? 'userspace' : null),
    failNextApply(error) {
      failure = error;
    },
    async read(): Promise<Observation> {
      fake.reads++;
      return { state: fake.state, counters: new Map(fake.counters) };
    },
    async apply(actions) {
      if (failure) {
        const e = failure;
        failure = undefined;
        throw e;
      }
      fake.applied.push([...actions]);
      fake.state = applyActions(fake.state, actions);
      for (const a of actions) {
        if (a.type === 'peer.add') fake.counters.set(a.peer.publicKey, zeroCounters());
        if (a.type === 'peer.remove') fake.counters.delete(a.publicKey);
      }
    },
  };
  return fake;
}
