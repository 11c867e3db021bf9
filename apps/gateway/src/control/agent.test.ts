import { create } from '@bufbuild/protobuf';
import {
  type ControlMessage,
  ControlMessageSchema,
  ControlErrorCode,
  type GatewayMessage,
  SnapshotRequestReason,
  WireGuardImplementation,
} from '@palisade/proto';
import { encodeBase64 } from '@palisade/wireguard';
import { describe, expect, it } from 'vitest';
import { createFakeWireGuard } from '#src/adapters/fake-wireguard.js';
import { createAgent } from './agent.js';

const k = (n: number) => encodeBase64(new Uint8Array(32).fill(n));
const identity = { gatewayId: 'gw-1', gatewayName: 'edge', hostname: 'edge.local', agentVersion: '0.1.0', interfaceName: 'wg0' };
const iface = { privateKey: k(90), listenPort: 51820, addresses: ['10.8.0.1/24'] };
const peers = [1, 2, 3].map((n) => ({ publicKey: k(n), allowedIps: [`10.8.0.${n + 1}/32`] }));

const snapshot = (revision: bigint, epoch = 'e1', ps = peers): ControlMessage =>
  create(ControlMessageSchema, { kind: { case: 'snapshot', value: { revisionEpoch: epoch, revision, interface: iface, peers: ps } } });
const keepaliveDelta = (revision: bigint, n: number): ControlMessage =>
  create(ControlMessageSchema, {
    kind: {
      case: 'delta',
      value: {
        revision,
        ops: [
          { op: { case: 'peerUpsert', value: { peer: { publicKey: k(n), allowedIps: [`10.8.0.${n + 1}/32`], persistentKeepalive: 25 } } } },
        ],
      },
    },
  });
const kinds = (ms: GatewayMessage[]) => ms.map((m) => m.kind.case);
const ackOf = (ms: GatewayMessage[]) => ms.flatMap((m) => (m.kind.case === 'ack' ? [m.kind.value.revision] : []));

function setup() {
  const wireguard = createFakeWireGuard();
  const agent = createAgent({ wireguard, identity, now: () => 1_763_700_000_000 });
  return { wireguard, agent };
}

describe('agent', () => {
  it('hello → snapshot → apply → ack, then a delta changes only the named peer without reading the interface', async () => {
    const { wireguard, agent } = setup();
    const [hello] = agent.connected();
    expect(hello?.kind).toMatchObject({ case: 'hello', value: { gatewayId: 'gw-1', appliedRevision: 0n, appliedRevisionEpoch: '' } });
    // No interface yet at the hello; the status after the first apply says what drives it.
    expect(hello?.kind.value).toMatchObject({ wireguardImplementation: WireGuardImplementation.UNSPECIFIED });
    const first = await agent.handle(snapshot(5n));
    expect(kinds(first.messages)).toEqual(['ack', 'status']);
    expect(ackOf(first.messages)).toEqual([5n]);
    expect(first.messages[1]?.kind.value).toMatchObject({ wireguardImplementation: WireGuardImplementation.USERSPACE });
    expect(wireguard.applied[0]?.map((a) => a.type)).toEqual([
      'interface.create',
      'interface.configure',
      'peer.add',
      'peer.add',
      'peer.add',
    ]);

    const reads = wireguard.reads;
    const second = await agent.handle(keepaliveDelta(6n, 2));
    expect(ackOf(second.messages)).toEqual([6n]);
    expect(wireguard.applied[1]).toEqual([{ type: 'peer.update', publicKey: k(2), set: { persistentKeepalive: 25 } }]);
    expect(wireguard.reads).toBe(reads);
    expect(agent.status()).toMatchObject({ appliedRevision: 6n, peerCount: 3, health: 'synced' });
  });

  it('on reconnect says its revision, and an unchanged snapshot changes nothing (counters survive)', async () => {
    const { wireguard, agent } = setup();
    agent.connected();
    await agent.handle(snapshot(5n));
    await agent.handle(keepaliveDelta(6n, 2));
    wireguard.counters.set(k(1), { endpoint: '192.0.2.1:5000', rxBytes: 999n, txBytes: 111n, latestHandshake: 1_763_699_999 });
    agent.disconnected();
    const [hello] = agent.connected();
    expect(hello?.kind).toMatchObject({ value: { appliedRevision: 6n, appliedRevisionEpoch: 'e1' } });
    const same = snapshot(
      6n,
      'e1',
      peers.map((p) => (p.publicKey === k(2) ? { ...p, persistentKeepalive: 25 } : p)),
    );
    const result = await agent.handle(same);
    expect(ackOf(result.messages)).toEqual([6n]);
    expect(wireguard.applied.at(-1)).toEqual([]);
    expect(wireguard.counters.get(k(1))?.rxBytes).toBe(999n);
  });

  it('requests a snapshot on a gap and does not apply the delta', async () => {
    const { wireguard, agent } = setup();
    agent.connected();
    await agent.handle(snapshot(5n));
    const result = await agent.handle(keepaliveDelta(8n, 1));
    expect(kinds(result.messages)).toEqual(['snapshotRequest', 'status']);
    expect(result.messages[0]?.kind.value).toMatchObject({ reason: SnapshotRequestReason.GAP, appliedRevision: 5n, receivedRevision: 8n });
    expect(wireguard.applied).toHaveLength(1);
  });

  it('does not ack a failed apply; reports degraded and asks for a snapshot, which then repairs', async () => {
    const { wireguard, agent } = setup();
    agent.connected();
    await agent.handle(snapshot(5n));
    wireguard.failNextApply(new Error('wg set failed'));
    const failed = await agent.handle(keepaliveDelta(6n, 1));
    expect(ackOf(failed.messages)).toEqual([]);
    expect(kinds(failed.messages)).toEqual(['status', 'snapshotRequest']);
    expect(agent.status()).toMatchObject({ health: 'degraded', lastError: 'wg set failed', appliedRevision: 0n });
    const repaired = await agent.handle(snapshot(6n));
    expect(ackOf(repaired.messages)).toEqual([6n]);
    expect(agent.status().health).toBe('synced');
  });

  it('treats an invalid snapshot as a failed apply and leaves the interface alone', async () => {
    const { wireguard, agent } = setup();
    agent.connected();
    const result = await agent.handle(snapshot(1n, 'e1', [{ publicKey: 'not-a-key', allowedIps: [] }]));
    expect(kinds(result.messages)).toEqual(['status', 'snapshotRequest']);
    expect(wireguard.applied).toEqual([]);
  });

  it('sends stats for every peer first, then only for peers that changed', async () => {
    const { wireguard, agent } = setup();
    agent.connected();
    await agent.handle(snapshot(5n));
    const first = await agent.collectStats();
    expect(first?.kind.case === 'statsReport' && first.kind.value.peers.map((p) => p.publicKey)).toEqual([k(1), k(2), k(3)]);
    expect(await agent.collectStats()).toBeNull();
    wireguard.counters.set(k(3), { endpoint: '192.0.2.9:777', rxBytes: 10n, txBytes: 20n, latestHandshake: 1_763_699_000 });
    const next = await agent.collectStats();
    expect(next?.kind.case).toBe('statsReport');
    if (next?.kind.case !== 'statsReport') return;
    expect(next.kind.value.peers).toHaveLength(1);
    expect(next.kind.value.peers[0]).toMatchObject({ publicKey: k(3), endpoint: '192.0.2.9:777', rxBytes: 10n, txBytes: 20n });
    expect(next.kind.value.peers[0]?.latestHandshake?.seconds).toBe(1_763_699_000n);
  });

  it('passes on why the server closes the stream', async () => {
    const { agent } = setup();
    agent.connected();
    const msg = create(ControlMessageSchema, {
      kind: { case: 'error', value: { code: ControlErrorCode.TOKEN_REVOKED, message: 'revoked' } },
    });
    expect(await agent.handle(msg)).toEqual({ messages: [], controlError: ControlErrorCode.TOKEN_REVOKED });
  });
});
