import { generateKeyPair } from '@palisade/wireguard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '#src/adapters/command-runner.js';
import { createWireGuard } from '#src/adapters/wireguard-kernel.js';
import { createUserspaceWireGuard } from '#src/adapters/wireguard-userspace.js';
import type { PeerCounters } from '#src/ports/wireguard.js';
import type { Action } from '#src/reconcile/actions.js';
import { diff } from '#src/reconcile/diff.js';
import { clampPrivateKey } from '#src/reconcile/normalize.js';
import type { InterfaceState, PeerState } from '#src/reconcile/state.js';
import { deleteNs, ensureWireGuardTools, inNs, ip, isRoot, removeWireGuardSocket, stopPid, uniqueSuffix } from './support/netns.js';

/**
 * The real userspace adapter against wireguard-go in network namespaces. A client namespace
 * holds a real WireGuard peer (peer 1) that completes a handshake through a veth pair, so
 * "untouched peers keep their handshake and counters" is checked on live values, not only on
 * the list of actions. Needs root; installs wireguard-go/wireguard-tools/iproute2 if missing.
 */
const canRun = isRoot() && ensureWireGuardTools();
const suffix = uniqueSuffix();
const gwNs = `pgw-gw-${suffix}`;
const clNs = `pgw-cl-${suffix}`;
const gwIf = `pgwg${suffix}`;
const clIf = `pgwc${suffix}`;

const gatewayKeys = generateKeyPair();
const keys = [generateKeyPair(), generateKeyPair(), generateKeyPair()] as const;
const peer = (i: 0 | 1 | 2, over: Partial<PeerState> = {}): PeerState => ({
  publicKey: keys[i].publicKey,
  presharedKey: null,
  allowedIps: [`10.8.0.${i + 2}/32`],
  persistentKeepalive: 0,
  ...over,
});
const desiredWith = (peers: PeerState[]): InterfaceState => ({
  exists: true,
  config: { privateKey: clampPrivateKey(gatewayKeys.privateKey), listenPort: 51820, addresses: ['10.8.0.1/24'], mtu: 1420 },
  peers: new Map(peers.map((p) => [p.publicKey, p])),
});
const touched = (actions: Action[]) =>
  actions.flatMap((a) => (a.type === 'peer.add' ? [a.peer.publicKey] : 'publicKey' in a ? [a.publicKey] : []));

describe.skipIf(!canRun)('userspace WireGuard adapter (system: netns + wireguard-go)', () => {
  const gwRunner = createCommandRunner(['ip', 'netns', 'exec', gwNs]);
  const gateway = createUserspaceWireGuard(gwRunner, gwIf);
  let clientPid: number | undefined;

  beforeAll(() => {
    ip('netns', 'add', gwNs);
    ip('netns', 'add', clNs);
    ip('link', 'add', `pgv${suffix}a`, 'netns', gwNs, 'type', 'veth', 'peer', 'name', `pgv${suffix}b`, 'netns', clNs);
    inNs(gwNs, ['ip', 'addr', 'add', '10.99.0.1/24', 'dev', `pgv${suffix}a`]);
    inNs(clNs, ['ip', 'addr', 'add', '10.99.0.2/24', 'dev', `pgv${suffix}b`]);
    for (const [ns, dev] of [
      [gwNs, `pgv${suffix}a`],
      [clNs, `pgv${suffix}b`],
    ] as const) {
      inNs(ns, ['ip', 'link', 'set', dev, 'up']);
      inNs(ns, ['ip', 'link', 'set', 'lo', 'up']);
    }
  });

  afterAll(async () => {
    await stopPid(gateway.link.pid);
    await stopPid(clientPid);
    for (const name of [gwIf, clIf, `pgwa${suffix}`]) removeWireGuardSocket(name);
    deleteNs(gwNs);
    deleteNs(clNs);
  });

  it('creates the interface and applies 3 peers; reading back gives the desired state', async () => {
    const before = await gateway.read();
    expect(before.state.exists).toBe(false);
    const desired = desiredWith([peer(0), peer(1, { persistentKeepalive: 25 }), peer(2)]);
    const actions = diff(before.state, desired);
    expect(actions.map((a) => a.type)).toEqual(['interface.create', 'interface.configure', 'peer.add', 'peer.add', 'peer.add']);
    await gateway.apply(actions);
    expect(gateway.implementation()).toBe('userspace');
    expect(gateway.link.pid).toBeGreaterThan(0);
    const after = await gateway.read();
    expect(after.state).toEqual(desired);
    expect(diff(after.state, desired)).toEqual([]); // an unchanged snapshot is a no-op
  });

  it('a real client completes a handshake with peer 1', async () => {
    clientPid = await createCommandRunner(['ip', 'netns', 'exec', clNs]).spawnDetached(['wireguard-go', '-f', clIf]);
    for (let i = 0; i < 100 && !inNs(clNs, ['ip', 'link']).includes(clIf); i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200)); // control socket
    inNs(clNs, ['sh', '-c', `cat | wg set ${clIf} private-key /dev/stdin`], `${keys[0].privateKey}\n`);
    inNs(clNs, ['wg', 'set', clIf, 'peer', gatewayKeys.publicKey, 'endpoint', '10.99.0.1:51820', 'allowed-ips', '10.8.0.0/24']);
    inNs(clNs, ['ip', 'addr', 'add', '10.8.0.2/24', 'dev', clIf]);
    inNs(clNs, ['ip', 'link', 'set', clIf, 'up']);
    inNs(clNs, ['ping', '-c', '2', '-W', '5', '10.8.0.1']);
    const counters = (await gateway.read()).counters.get(keys[0].publicKey)!;
    expect(counters.latestHandshake).toBeGreaterThan(0);
    expect(counters.rxBytes).toBeGreaterThan(0n);
    expect(counters.endpoint).toMatch(/^10\.99\.0\.2:\d+$/);
  });

  it('changing peer 2 touches only peer 2: peer 1 keeps its handshake, endpoint and counters', async () => {
    const before = await gateway.read();
    const peer1Before = before.counters.get(keys[0].publicKey) as PeerCounters;
    const desired = desiredWith([peer(0), peer(1, { persistentKeepalive: 0, allowedIps: ['10.8.0.3/32', '10.8.1.0/24'] }), peer(2)]);
    const actions = diff(before.state, desired);
    expect(touched(actions)).toEqual([keys[1].publicKey]);
    expect(actions).toEqual([
      { type: 'peer.update', publicKey: keys[1].publicKey, set: { allowedIps: ['10.8.0.3/32', '10.8.1.0/24'], persistentKeepalive: 0 } },
    ]);
    await gateway.apply(actions);
    const after = await gateway.read();
    expect(after.state).toEqual(desired);
    expect(after.counters.get(keys[0].publicKey)).toEqual(peer1Before);
    expect(after.state.peers.get(keys[2].publicKey)).toEqual(before.state.peers.get(keys[2].publicKey));
    inNs(clNs, ['ping', '-c', '1', '-W', '5', '10.8.0.1']); // the tunnel still works without a new handshake
    expect((await gateway.read()).counters.get(keys[0].publicKey)?.latestHandshake).toBe(peer1Before.latestHandshake);
  });

  it('removes a peer and leaves the others as they were', async () => {
    const before = await gateway.read();
    const desired = desiredWith([peer(0), peer(1, { persistentKeepalive: 0, allowedIps: ['10.8.0.3/32', '10.8.1.0/24'] })]);
    const actions = diff(before.state, desired);
    expect(actions).toEqual([{ type: 'peer.remove', publicKey: keys[2].publicKey }]);
    await gateway.apply(actions);
    const after = await gateway.read();
    expect([...after.state.peers.keys()].sort()).toEqual([keys[0].publicKey, keys[1].publicKey].sort());
    expect(after.counters.get(keys[0].publicKey)?.latestHandshake).toBe(before.counters.get(keys[0].publicKey)?.latestHandshake);
    expect(after.counters.get(keys[0].publicKey)?.rxBytes).toBe(before.counters.get(keys[0].publicKey)?.rxBytes);
  });

  it('GATEWAY_USERSPACE=auto falls back to wireguard-go when the kernel has no WireGuard', async () => {
    const name = `pgwa${suffix}`;
    const auto = createWireGuard('auto', gwRunner, name);
    const desired = desiredWith([]);
    try {
      await auto.apply(diff((await auto.read()).state, { ...desired, config: { ...desired.config, listenPort: 0 } }));
      const kind = JSON.parse(inNs(gwNs, ['ip', '-d', '-j', 'link', 'show', 'dev', name]))[0].linkinfo.info_kind;
      expect(auto.implementation()).toBe(kind === 'wireguard' ? 'kernel' : 'userspace');
    } finally {
      await stopPid(auto.link.pid); // a TUN disappears with its process; a kernel link with the namespace
    }
  });
});
