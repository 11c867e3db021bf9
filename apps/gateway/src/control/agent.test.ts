import { create } from '@bufbuild/protobuf';
import {
  type ControlMessage,
  ControlMessageSchema,
  ControlErrorCode,
  FirewallVerdict,
  type GatewayMessage,
  SnapshotRequestReason,
  WireGuardImplementation,
} from '@palisade/proto';
import { encodeBase64 } from '@palisade/wireguard';
import { describe, expect, it } from 'vitest';
import { createFakeWireGuard } from '#src/adapters/fake-wireguard.js';
import type { FirewallState } from '#src/firewall/model.js';
import type { FirewallPort } from '#src/ports/firewall.js';
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

  describe('firewall', () => {
    const firewall = {
      managed: true,
      defaultAllow: false,
      rules: [{ id: 'r1_allow', verdict: FirewallVerdict.ACCEPT, members: ['d1'] }],
      members: [{ key: 'd1', addresses: ['10.8.0.2'] }],
    };
    const withFirewall = (revision: bigint, fw: object | undefined) =>
      create(ControlMessageSchema, {
        kind: { case: 'snapshot', value: { revisionEpoch: 'e1', revision, interface: iface, peers, firewall: fw as never } },
      });
    const ruleDelta = (revision: bigint, id: string) =>
      create(ControlMessageSchema, {
        kind: {
          case: 'delta',
          value: {
            revision,
            ops: [{ op: { case: 'firewallRuleUpsert', value: { rule: { id, verdict: FirewallVerdict.DROP, anySource: true } } } }],
          },
        },
      });

    function setupWithFirewall() {
      const wireguard = createFakeWireGuard();
      const calls: { state: FirewallState; verify: boolean; wgApplies: number }[] = [];
      let failure: Error | undefined;
      const port: FirewallPort = {
        table: 'inet palisade_wg0',
        async apply(state, options) {
          calls.push({ state, verify: options?.verify ?? false, wgApplies: wireguard.applied.length });
          if (failure) {
            const e = failure;
            failure = undefined;
            throw e;
          }
          return true;
        },
        async remove() {},
      };
      const agent = createAgent({ wireguard, firewall: port, identity, now: () => 1_763_700_000_000 });
      agent.connected();
      return { wireguard, agent, calls, fail: (e: Error) => (failure = e) };
    }

    it("applies a snapshot's firewall (checking the table) before its peers, and a delta's firewall ops on the last one", async () => {
      const { agent, calls } = setupWithFirewall();
      expect(ackOf((await agent.handle(withFirewall(5n, firewall))).messages)).toEqual([5n]);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ verify: true, wgApplies: 0, state: { managed: true, defaultAllow: false } });
      expect([...calls[0]!.state.rules.keys()]).toEqual(['r1_allow']);
      expect(ackOf((await agent.handle(ruleDelta(6n, 'r2_deny'))).messages)).toEqual([6n]);
      expect(calls[1]).toMatchObject({ verify: false });
      expect([...calls[1]!.state.rules.keys()]).toEqual(['r1_allow', 'r2_deny']);
      expect(calls[1]!.state.members).toBe(calls[0]!.state.members);
      // A peer-only delta does not touch the firewall.
      await agent.handle(keepaliveDelta(7n, 1));
      expect(calls).toHaveLength(2);
      // A snapshot without a firewall (ACL off) is unmanaged: the port removes the table.
      await agent.handle(withFirewall(8n, undefined));
      expect(calls[2]).toMatchObject({ verify: true, state: { managed: false } });
    });

    it('reports a failed nft apply as a failed apply (no ack, degraded, snapshot requested) and repairs with the next snapshot', async () => {
      const { agent, fail, wireguard } = setupWithFirewall();
      await agent.handle(withFirewall(5n, firewall));
      fail(new Error('nft -f - failed (exit 1): Error: Could not process rule'));
      const failed = await agent.handle(ruleDelta(6n, 'r2_deny'));
      expect(ackOf(failed.messages)).toEqual([]);
      expect(kinds(failed.messages)).toEqual(['status', 'snapshotRequest']);
      expect(failed.messages[1]?.kind.value).toMatchObject({ reason: SnapshotRequestReason.APPLY_FAILED });
      expect(agent.status()).toMatchObject({ health: 'degraded', lastError: expect.stringContaining('nft -f - failed') });
      expect(wireguard.applied).toHaveLength(1);
      expect(ackOf((await agent.handle(withFirewall(6n, firewall))).messages)).toEqual([6n]);
      expect(agent.status().health).toBe('synced');
    });

    it('treats an invalid firewall as a failed apply before changing anything', async () => {
      const { agent, calls, wireguard } = setupWithFirewall();
      const bad = { ...firewall, rules: [{ id: 'Bad-Id', verdict: FirewallVerdict.ACCEPT }] };
      const result = await agent.handle(withFirewall(5n, bad));
      expect(kinds(result.messages)).toEqual(['status', 'snapshotRequest']);
      expect(calls).toEqual([]);
      expect(wireguard.applied).toEqual([]);
    });
  });
});
