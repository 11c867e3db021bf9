import type { Action, InterfaceChanges, PeerChanges } from './actions.js';
import type { InterfaceConfig, InterfaceState, PeerState } from './state.js';

/**
 * The reconcile step: `(actual, desired) → actions`, pure. Applying the actions to `actual`
 * yields `desired` (see apply.ts), and peers that are equal in both produce no action at all, so
 * their handshakes and counters survive (ARCHITECTURE §5).
 *
 * Order: create the interface, configure it, remove peers, update, then add. Removing first
 * frees allowed IPs that an updated or added peer may take over.
 *
 * `scope` limits the comparison to the peers a delta touched (and the interface only when it
 * changed), so a one-device change costs O(1) however many peers the interface has.
 */
export interface DiffScope {
  interface: boolean;
  peers: Iterable<string>;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export function diffConfig(actual: InterfaceConfig, desired: InterfaceConfig): InterfaceChanges | undefined {
  const set: InterfaceChanges = {};
  if (actual.privateKey !== desired.privateKey) set.privateKey = desired.privateKey;
  if (desired.listenPort !== 0 && actual.listenPort !== desired.listenPort) set.listenPort = desired.listenPort;
  if (desired.mtu !== null && actual.mtu !== desired.mtu) set.mtu = desired.mtu;
  const add = desired.addresses.filter((a) => !actual.addresses.includes(a));
  const remove = actual.addresses.filter((a) => !desired.addresses.includes(a));
  if (add.length > 0) set.addAddresses = add;
  if (remove.length > 0) set.removeAddresses = remove;
  if (actual.down && !desired.down) set.up = true;
  return Object.keys(set).length > 0 ? set : undefined;
}

export function diffPeer(actual: PeerState, desired: PeerState): PeerChanges | undefined {
  const set: PeerChanges = {};
  if (actual.presharedKey !== desired.presharedKey) set.presharedKey = desired.presharedKey;
  if (!sameList(actual.allowedIps, desired.allowedIps)) set.allowedIps = desired.allowedIps;
  if (actual.persistentKeepalive !== desired.persistentKeepalive) set.persistentKeepalive = desired.persistentKeepalive;
  return Object.keys(set).length > 0 ? set : undefined;
}

function peerKeys(actual: InterfaceState, desired: InterfaceState, scope?: DiffScope): Iterable<string> {
  if (scope) return new Set(scope.peers);
  return new Set([...actual.peers.keys(), ...desired.peers.keys()]);
}

export function diff(actual: InterfaceState, desired: InterfaceState, scope?: DiffScope): Action[] {
  const head: Action[] = [];
  if (!actual.exists) head.push({ type: 'interface.create' });
  if (!actual.exists || !scope || scope.interface) {
    const set = diffConfig(actual.config, desired.config);
    if (set) head.push({ type: 'interface.configure', set });
  }
  const removes: Action[] = [];
  const updates: Action[] = [];
  const adds: Action[] = [];
  for (const key of peerKeys(actual, desired, scope)) {
    const have = actual.peers.get(key);
    const want = desired.peers.get(key);
    if (have && !want) removes.push({ type: 'peer.remove', publicKey: key });
    else if (!have && want) adds.push({ type: 'peer.add', peer: want });
    else if (have && want) {
      const set = diffPeer(have, want);
      if (set) updates.push({ type: 'peer.update', publicKey: key, set });
    }
  }
  return [...head, ...removes, ...updates, ...adds];
}
