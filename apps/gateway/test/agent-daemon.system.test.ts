import { type ChildProcess, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateKeyPair } from '@palisade/wireguard';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteNs, ensureWireGuardTools, inNs, ip, isRoot, removeWireGuardSocket, stopPid, uniqueSuffix } from './support/netns.js';
import { spawnLines, wireguardGoPid } from './support/line-process.js';

/**
 * The whole agent as operators run it (`bin/palisade-gateway.mjs`, configured by flags) inside a
 * network namespace, against a scripted control plane (test/support/scripted-control-plane.ts)
 * in the same namespace, with real WireGuard (`--userspace auto` → wireguard-go here). Checks the
 * wiring end to end: hello, snapshot + delta applied and acked, stats, /health, /metrics, and that stopping
 * the agent leaves the interface configured (fail-open). Needs root.
 */
const canRun = isRoot() && ensureWireGuardTools();
const appDir = fileURLToPath(new URL('..', import.meta.url));
const suffix = uniqueSuffix();
const ns = `pgw-d-${suffix}`;
const ifname = `pgwd${suffix}`;
const gateway = generateKeyPair();
const peers = [generateKeyPair(), generateKeyPair(), generateKeyPair()].map((k, i) => ({
  publicKey: k.publicKey,
  allowedIps: [`10.70.0.${i + 2}/32`],
}));
const script = {
  snapshot: {
    revisionEpoch: 'sys',
    revision: '1n',
    interface: { privateKey: gateway.privateKey, listenPort: 51830, addresses: ['10.70.0.1/24'] },
    peers,
    // The location's ACL: one rule (FIREWALL_VERDICT_ACCEPT = 1) for the first peer's address.
    firewall: {
      managed: true,
      defaultAllow: false,
      rules: [{ id: 'r1_allow', verdict: 1, members: ['d1'] }],
      members: [{ key: 'd1', addresses: ['10.70.0.2'] }],
    },
  },
  deltas: [{ revision: '2n', ops: [{ op: { case: 'peerUpsert', value: { peer: { ...peers[1], persistentKeepalive: 25 } } } }] }],
};

type Event = { event: string; kind?: string; value?: Record<string, unknown>; port?: number };

/** Spawns inside the namespace and collects its output lines. */
const spawnInNs = (argv: string[]) => spawnLines(['ip', 'netns', 'exec', ns, ...argv], appDir);

describe.skipIf(!canRun)('palisade-gateway daemon (system: netns + wireguard-go + scripted control plane)', () => {
  const started: ChildProcess[] = [];
  let wgPid: number | undefined;

  afterAll(async () => {
    for (const child of started) await stopPid(child.pid);
    await stopPid(wgPid ?? wireguardGoPid(ns, ifname));
    removeWireGuardSocket(ifname);
    deleteNs(ns);
  });

  it('applies and acks what the control plane sends, serves /health, and keeps the interface when stopped', async () => {
    ip('netns', 'add', ns);
    inNs(ns, ['ip', 'link', 'set', 'lo', 'up']);
    const server = spawnInNs(['node', '--import', 'tsx', 'test/support/scripted-control-plane.ts', JSON.stringify(script)]);
    started.push(server.child);
    const port = (JSON.parse(await server.waitFor((l) => l.includes('"listening"'), 20_000)) as Event).port;

    const agent = spawnInNs([
      'node',
      'bin/palisade-gateway.mjs',
      ...['--grpc-url', `http://127.0.0.1:${port}`, '--token', 'sys-token', '--ifname', ifname],
      ...['--userspace', 'auto', '--stats-interval', '1', '--health-port', '0'],
    ]);
    started.push(agent.child);
    await server.waitFor((l) => l.includes('"done"'), 30_000);
    wgPid = wireguardGoPid(ns, ifname);

    const events = server.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Event);
    const messages = events.filter((e) => e.event === 'message');
    expect(messages[0]).toMatchObject({ kind: 'hello', value: { appliedRevision: '0', interfaceName: ifname } });
    expect(messages.filter((m) => m.kind === 'ack').map((m) => m.value?.revision)).toEqual(['1', '2']);

    const dump = inNs(ns, ['wg', 'show', ifname, 'dump']).trim().split('\n');
    expect(dump[0]?.split('\t')[2]).toBe('51830');
    const keepalive = new Map(dump.slice(1).map((l) => [l.split('\t')[0], l.split('\t')[7]]));
    expect(keepalive).toEqual(
      new Map([
        [peers[0]!.publicKey, 'off'],
        [peers[1]!.publicKey, '25'],
        [peers[2]!.publicKey, 'off'],
      ]),
    );
    expect(inNs(ns, ['ip', '-j', 'addr', 'show', 'dev', ifname])).toContain('"10.70.0.1"');

    const healthLine = await agent.waitFor((l) => /\/health on port \d+/.test(l), 5_000);
    const healthPort = /port (\d+)/.exec(healthLine)![1];
    const health = JSON.parse(inNs(ns, ['curl', '-s', `http://127.0.0.1:${healthPort}/health`]));
    expect(health).toMatchObject({
      status: 'ok',
      connected: true,
      state: 'synced',
      appliedRevision: '2',
      revisionEpoch: 'sys',
      peerCount: 3,
    });

    // /metrics on the same port: peers, the acknowledged revision, timed applies (nft included), no reconnect.
    const metrics = inNs(ns, ['curl', '-s', `http://127.0.0.1:${healthPort}/metrics`]);
    const sample = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect(sample('palisade_agent_peers')).toBe(3);
    expect(sample('palisade_agent_acked_revision')).toBe(2);
    expect(sample('palisade_agent_connected')).toBe(1);
    expect(sample('palisade_agent_reconnects_total')).toBe(0);
    expect(sample('palisade_agent_apply_duration_seconds_count\\{kind="snapshot",result="ok"\\}')).toBe(1);
    expect(sample('palisade_agent_apply_duration_seconds_count\\{kind="delta",result="ok"\\}')).toBe(1);
    expect(sample('palisade_agent_nft_duration_seconds_count\\{result="ok"\\}')).toBeGreaterThanOrEqual(1);

    const table = `table inet palisade_${ifname}`;
    expect(inNs(ns, ['nft', 'list', 'tables'])).toContain(table);

    const exited = new Promise((resolve) => agent.child.once('exit', resolve));
    agent.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Fail-open: the tunnel and its peers outlive the agent, and so does its firewall by default.
    expect(inNs(ns, ['wg', 'show', ifname, 'dump']).trim().split('\n')).toHaveLength(4);
    expect(inNs(ns, ['nft', 'list', 'tables'])).toContain(table);

    // With --cleanup-firewall the agent removes its table when it stops (and only its table).
    inNs(ns, ['nft', 'add', 'table', 'inet', 'someone_else']);
    const again = spawnInNs(['node', '--import', 'tsx', 'test/support/scripted-control-plane.ts', JSON.stringify(script)]);
    started.push(again.child);
    const againPort = (JSON.parse(await again.waitFor((l) => l.includes('"listening"'), 20_000)) as Event).port;
    const cleaning = spawnInNs([
      'node',
      'bin/palisade-gateway.mjs',
      ...['--grpc-url', `http://127.0.0.1:${againPort}`, '--token', 'sys-token', '--ifname', ifname],
      ...['--userspace', 'auto', '--health-port', '0', '--cleanup-firewall'],
    ]);
    started.push(cleaning.child);
    await again.waitFor((l) => l.includes('"done"'), 30_000);
    const cleaned = new Promise((resolve) => cleaning.child.once('exit', resolve));
    cleaning.child.kill('SIGTERM');
    expect(await cleaned).toBe(0);
    expect(cleaning.lines.join('\n')).toContain(`removed the firewall table inet palisade_${ifname} (--cleanup-firewall)`);
    expect(inNs(ns, ['nft', 'list', 'tables'])).not.toContain(table);
    expect(inNs(ns, ['nft', 'list', 'tables'])).toContain('table inet someone_else');
    expect(inNs(ns, ['wg', 'show', ifname, 'dump']).trim().split('\n')).toHaveLength(4);
  }, 90_000);

  it('GATEWAY_USERSPACE=never on a kernel without WireGuard stops at once, naming the variable', () => {
    const name = `pgwn${suffix}`;
    const probe = spawnSync('ip', ['netns', 'exec', ns, 'ip', 'link', 'add', 'dev', name, 'type', 'wireguard'], { encoding: 'utf8' });
    if (probe.status === 0) {
      inNs(ns, ['ip', 'link', 'del', 'dev', name]);
      return; // this kernel has WireGuard: nothing to refuse
    }
    const args = ['--grpc-url', 'http://127.0.0.1:9', '--token', 't', '--ifname', name, '--userspace', 'never', '--health-port', '0'];
    const r = spawnSync('ip', ['netns', 'exec', ns, 'node', 'bin/palisade-gateway.mjs', ...args], {
      cwd: appDir,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('GATEWAY_USERSPACE (--userspace): never, but the kernel has no WireGuard module');
    expect(spawnSync('ip', ['netns', 'exec', ns, 'ip', 'link', 'show', name]).status).not.toBe(0);
  });
});
