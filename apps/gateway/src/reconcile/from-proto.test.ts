import { create } from '@bufbuild/protobuf';
import { DeltaSchema, SnapshotSchema } from '@palisade/proto';
import { encodeBase64 } from '@palisade/wireguard';
import { describe, expect, it } from 'vitest';
import { applyDelta, desiredFromSnapshot } from './from-proto.js';
import { clampPrivateKey, StateError } from './normalize.js';

const k = (n: number) => encodeBase64(new Uint8Array(32).fill(n));
const snapshot = create(SnapshotSchema, {
  revisionEpoch: 'e1',
  revision: 7n,
  interface: { privateKey: k(9), listenPort: 51820, addresses: ['10.8.0.1/24'] },
  peers: [
    { publicKey: k(1), allowedIps: ['10.8.0.2'], persistentKeepalive: 25 },
    { publicKey: k(2), presharedKey: k(5), allowedIps: ['10.8.0.3/32', '10.9.0.7/24'] },
  ],
});

describe('desired state from protocol messages', () => {
  it('normalises a snapshot: clamped private key, canonical sorted networks, "none" as null', () => {
    const desired = desiredFromSnapshot(snapshot);
    expect(desired.config).toEqual({ privateKey: clampPrivateKey(k(9)), listenPort: 51820, addresses: ['10.8.0.1/24'], mtu: null });
    expect(desired.peers.get(k(1))).toEqual({ publicKey: k(1), presharedKey: null, allowedIps: ['10.8.0.2/32'], persistentKeepalive: 25 });
    expect(desired.peers.get(k(2))?.allowedIps).toEqual(['10.8.0.3/32', '10.9.0.0/24']);
  });

  it('rejects invalid snapshots', () => {
    const bad = (peers: { publicKey: string; allowedIps: string[] }[]) => () =>
      desiredFromSnapshot(create(SnapshotSchema, { revision: 7n, interface: { privateKey: k(9) }, peers }));
    expect(bad([{ publicKey: 'nope', allowedIps: [] }])).toThrow(StateError);
    expect(bad([{ publicKey: k(1), allowedIps: ['10.8.0.300/32'] }])).toThrow(/not an IP address/);
    expect(
      bad([
        { publicKey: k(1), allowedIps: [] },
        { publicKey: k(1), allowedIps: [] },
      ]),
    ).toThrow(/appears twice/);
    expect(
      bad([
        { publicKey: k(1), allowedIps: ['10.8.0.2/32'] },
        { publicKey: k(2), allowedIps: ['10.8.0.2/32'] },
      ]),
    ).toThrow(/given to peers/);
    expect(() => desiredFromSnapshot(create(SnapshotSchema, { revision: 1n }))).toThrow(/no interface/);
  });

  it('applies a delta and reports exactly the peers and interface it touched', () => {
    const delta = create(DeltaSchema, {
      revision: 8n,
      ops: [
        { op: { case: 'peerRemove', value: { publicKey: k(1) } } },
        { op: { case: 'peerUpsert', value: { peer: { publicKey: k(3), allowedIps: ['10.8.0.2/32'] } } } },
        { op: { case: 'firewallReplace', value: { firewall: {} } } },
      ],
    });
    const before = desiredFromSnapshot(snapshot);
    const { desired, scope } = applyDelta(before, delta);
    expect([...desired.peers.keys()].sort()).toEqual([k(2), k(3)].sort());
    expect(scope).toEqual({ interface: false, peers: new Set([k(1), k(3)]) });
    expect(before.peers.has(k(1))).toBe(true); // the previous desired state is not mutated
    const changed = applyDelta(
      desired,
      create(DeltaSchema, {
        revision: 9n,
        ops: [{ op: { case: 'interfaceChange', value: { interface: { privateKey: k(9), listenPort: 51821, addresses: [] } } } }],
      }),
    );
    expect(changed.scope.interface).toBe(true);
    expect(changed.desired.config.listenPort).toBe(51821);
  });
});
