import type { Delta, Interface, Peer, Snapshot } from '@palisade/proto';
import type { DiffScope } from './diff.js';
import { assertNoSharedAllowedIps, normalizeConfig, normalizePeer, StateError } from './normalize.js';
import type { InterfaceConfig, InterfaceState, PeerState } from './state.js';

/**
 * Desired state from protocol messages. A snapshot replaces everything; a delta is applied to
 * the previous desired state and also returns its scope (the peers it named, whether the
 * interface changed), so the agent diffs only that much. Invalid content is a `StateError`,
 * which the agent treats as a failed apply (no ack, snapshot requested).
 */
const toConfig = (i: Interface | undefined): InterfaceConfig => {
  if (!i) throw new StateError('message has no interface');
  return normalizeConfig({ privateKey: i.privateKey, listenPort: i.listenPort, addresses: i.addresses, mtu: i.mtu ?? null });
};

const toPeer = (p: Peer): PeerState =>
  normalizePeer({
    publicKey: p.publicKey,
    presharedKey: p.presharedKey,
    allowedIps: p.allowedIps,
    persistentKeepalive: p.persistentKeepalive,
  });

export function desiredFromSnapshot(snapshot: Snapshot): InterfaceState {
  const peers = new Map<string, PeerState>();
  for (const p of snapshot.peers) {
    const peer = toPeer(p);
    if (peers.has(peer.publicKey)) throw new StateError(`peer ${peer.publicKey} appears twice in snapshot ${snapshot.revision}`);
    peers.set(peer.publicKey, peer);
  }
  assertNoSharedAllowedIps(peers.values());
  return { exists: true, config: toConfig(snapshot.interface), peers };
}

export interface AppliedDelta {
  desired: InterfaceState;
  scope: DiffScope;
}

export function applyDelta(desired: InterfaceState, delta: Delta): AppliedDelta {
  const peers = new Map(desired.peers);
  let config = desired.config;
  const scope = { interface: false, peers: new Set<string>() };
  for (const { op } of delta.ops) {
    switch (op.case) {
      case 'peerUpsert': {
        if (!op.value.peer) throw new StateError(`delta ${delta.revision}: peer upsert without a peer`);
        const peer = toPeer(op.value.peer);
        peers.set(peer.publicKey, peer);
        scope.peers.add(peer.publicKey);
        break;
      }
      case 'peerRemove':
        peers.delete(op.value.publicKey);
        scope.peers.add(op.value.publicKey);
        break;
      case 'interfaceChange':
        config = toConfig(op.value.interface);
        scope.interface = true;
        break;
      case 'firewallReplace':
      case 'firewallRuleUpsert':
      case 'firewallRuleRemove':
      case 'firewallMemberUpsert':
      case 'firewallMemberRemove':
        // The firewall's own state: firewall/from-delta.ts.
        break;
      default:
        throw new StateError(`delta ${delta.revision}: unknown operation`);
    }
  }
  return { desired: { exists: true, config, peers }, scope };
}
