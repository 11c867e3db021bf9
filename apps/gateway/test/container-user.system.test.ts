import { type ChildProcess, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKeyPair } from '@palisade/wireguard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteNs, ensureWireGuardTools, inNs, ip, isRoot, stopPid, uniqueSuffix } from './support/netns.js';
import { spawnLines, wireguardGoPid } from './support/line-process.js';

/**
 * The gateway container's user model without Docker (docker/gateway.Dockerfile): the agent runs
 * as an unprivileged user whose bounding set is only NET_ADMIN and NET_RAW (`--cap-drop ALL
 * --cap-add NET_ADMIN --cap-add NET_RAW`), started through a copy of setpriv that holds the two
 * capabilities as file capabilities (permitted only) and raises them to ambient, with the flags
 * of the image's ENTRYPOINT. In a network namespace, against the scripted control plane, with
 * wireguard-go: the agent must apply and ack, and its firewall table must be there. And the
 * reason for the launcher: `ip` given the same file capabilities directly drops them when run as
 * non-root. Needs root (to build the sandbox), setpriv and setcap.
 */
const USER = 65_534; // nobody
const appDir = fileURLToPath(new URL('..', import.meta.url));
const dockerfile = readFileSync(fileURLToPath(new URL('../../../docker/gateway.Dockerfile', import.meta.url)), 'utf8');

/** The image's ENTRYPOINT, e.g. ["palisade-netcaps", "--inh-caps=…", "--ambient-caps=…", "--", "node", …]. */
const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
const launcherFlags = entrypoint.slice(1, entrypoint.indexOf('--'));
/** `setcap <caps> /usr/local/bin/palisade-netcaps` in the Dockerfile. */
const launcherCaps = /setcap (\S+) \/usr\/local\/bin\/palisade-netcaps/.exec(dockerfile)?.[1];

function ensureCapabilityTools(): boolean {
  const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
  if (has('setcap') && has('setpriv')) return true;
  if (!isRoot()) return false;
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'libcap2-bin'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return has('setcap') && has('setpriv');
}

const canRun = isRoot() && ensureWireGuardTools() && ensureCapabilityTools();
const suffix = uniqueSuffix();
const ns = `pgw-u-${suffix}`;
const ifname = `pgwu${suffix}`;
const gateway = generateKeyPair();
const peers = [generateKeyPair(), generateKeyPair()].map((k, i) => ({ publicKey: k.publicKey, allowedIps: [`10.71.0.${i + 2}/32`] }));
const script = {
  snapshot: {
    revisionEpoch: 'usr',
    revision: '1n',
    interface: { privateKey: gateway.privateKey, listenPort: 51831, addresses: ['10.71.0.1/24'] },
    peers,
    firewall: {
      managed: true,
      defaultAllow: false,
      rules: [{ id: 'r1_allow', verdict: 1, members: ['d1'] }],
      members: [{ key: 'd1', addresses: ['10.71.0.2'] }],
    },
  },
  deltas: [{ revision: '2n', ops: [{ op: { case: 'peerUpsert', value: { peer: { ...peers[1], persistentKeepalive: 25 } } } }] }],
};

/**
 * A shell script run as root inside the namespace (its own mount namespace, from `ip netns
 * exec`) that builds the container's view, then runs `argv` as USER with the container's
 * bounding set: a tmpfs work directory (device nodes and file capabilities allowed) with the
 * launcher and a 0666 TUN node (Docker copies the host's mode; 0666 is Debian's), and
 * /run/wireguard owned by the user, as the image creates it.
 */
function sandbox(work: string, launcher: 'netcaps' | 'none', argv: string[]): string[] {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const run = [
    'setpriv',
    `--reuid=${USER}`,
    `--regid=${USER}`,
    '--clear-groups',
    '--bounding-set=-all,+net_admin,+net_raw',
    '--inh-caps=-all',
    ...(launcher === 'netcaps' ? [`${work}/netcaps`, ...launcherFlags, '--'] : []),
    ...argv,
  ];
  const setup = [
    'set -e',
    `mount -t tmpfs -o mode=0755 tmpfs ${work}`,
    `mknod -m 0666 ${work}/tun c 10 200`,
    `mount --bind ${work}/tun /dev/net/tun`,
    `install -o root -g ${USER} -m 0750 "$(command -v setpriv)" ${work}/netcaps`,
    `setcap ${launcherCaps} ${work}/netcaps`,
    `install -o root -g ${USER} -m 0750 "$(readlink -f "$(command -v ip)")" ${work}/ip`,
    `setcap ${launcherCaps?.replace('+p', '+ep')} ${work}/ip`,
    'mkdir -p /run/wireguard',
    `mount -t tmpfs -o mode=0700,uid=${USER},gid=${USER} tmpfs /run/wireguard`,
    `exec ${run.map(quote).join(' ')}`,
  ];
  return ['ip', 'netns', 'exec', ns, 'sh', '-c', setup.join('\n')];
}

type Event = { event: string; kind?: string; value?: Record<string, unknown>; port?: number };

describe.skipIf(!canRun)('gateway container user (system: non-root agent with ambient NET_ADMIN, netns, wireguard-go)', () => {
  const started: ChildProcess[] = [];
  const work = canRun ? mkdtempSync(join(tmpdir(), 'pgw-user-')) : '';
  let wgPid: number | undefined;

  beforeAll(() => {
    ip('netns', 'add', ns);
    inNs(ns, ['ip', 'link', 'set', 'lo', 'up']);
  });

  afterAll(async () => {
    for (const child of started) await stopPid(child.pid);
    await stopPid(wgPid ?? wireguardGoPid(ns, ifname));
    deleteNs(ns);
    if (work !== '' && existsSync(work)) rmSync(work, { recursive: true, force: true });
  });

  it('reads the launcher from the image: setpriv flags that raise NET_ADMIN and NET_RAW to ambient', () => {
    expect(launcherFlags).toEqual(['--inh-caps=+net_admin,+net_raw', '--ambient-caps=+net_admin,+net_raw']);
    expect(launcherCaps).toBe('cap_net_admin,cap_net_raw+p');
  });

  it('`ip` with file capabilities drops them as non-root; through the launcher it has them', () => {
    const [directCmd, ...directArgs] = sandbox(work, 'none', [`${work}/ip`, 'addr', 'add', '10.72.0.1/32', 'dev', 'lo']);
    const direct = spawnSync(directCmd!, directArgs, { encoding: 'utf8' });
    expect(direct.status).not.toBe(0);
    expect(direct.stderr).toContain('Operation not permitted');

    const [cmd, ...args] = sandbox(work, 'netcaps', [
      'sh',
      '-c',
      'id -u && grep CapAmb /proc/self/status && ip addr add 10.72.0.1/32 dev lo',
    ]);
    const launched = spawnSync(cmd!, args, { encoding: 'utf8' });
    expect(launched.stderr).toBe('');
    expect(launched.status).toBe(0);
    expect(launched.stdout).toContain(`${USER}\n`);
    // CAP_NET_ADMIN (12) and CAP_NET_RAW (13): 0x3000, nothing else.
    expect(launched.stdout).toMatch(/CapAmb:\s+0000000000003000/);
    expect(inNs(ns, ['ip', '-j', 'addr', 'show', 'dev', 'lo'])).toContain('"10.72.0.1"');
  });

  it('the agent as that user applies and acks what the control plane sends, with wireguard-go and nftables', async () => {
    const server = spawnLines(
      ['ip', ...['netns', 'exec', ns, 'node', '--import', 'tsx', 'test/support/scripted-control-plane.ts', JSON.stringify(script)]],
      appDir,
    );
    started.push(server.child);
    const port = (JSON.parse(await server.waitFor((l) => l.includes('"listening"'), 20_000)) as Event).port;

    const agent = spawnLines(
      sandbox(work, 'netcaps', [
        process.execPath,
        `${appDir}bin/palisade-gateway.mjs`,
        ...['--grpc-url', `http://127.0.0.1:${port}`, '--token', 'sys-token', '--ifname', ifname],
        ...['--userspace', 'always', '--stats-interval', '1', '--health-port', '0'],
      ]),
      appDir,
    );
    started.push(agent.child);
    await server.waitFor((l) => l.includes('"done"'), 30_000);
    wgPid = wireguardGoPid(ns, ifname);

    const messages = server.lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Event)
      .filter((e) => e.event === 'message');
    expect(messages.filter((m) => m.kind === 'ack').map((m) => m.value?.revision)).toEqual(['1', '2']);

    // The agent and wireguard-go run as the user, not root.
    const owner = (pid: number | undefined) => readFileSync(`/proc/${pid}/status`, 'utf8').match(/^Uid:\s+(\d+)/m)?.[1];
    expect(wgPid).toBeDefined();
    expect(owner(wgPid)).toBe(String(USER));
    // `ip netns exec`, sh, setpriv and the launcher each exec the next: the child's PID is the agent's.
    expect(owner(agent.child.pid)).toBe(String(USER));

    expect(inNs(ns, ['ip', '-j', 'addr', 'show', 'dev', ifname])).toContain('"10.71.0.1"');
    expect(inNs(ns, ['nft', 'list', 'tables'])).toContain(`table inet palisade_${ifname}`);
    const healthLine = await agent.waitFor((l) => /\/health on port \d+/.test(l), 5_000);
    const healthPort = /port (\d+)/.exec(healthLine)?.[1];
    const health = JSON.parse(inNs(ns, ['curl', '-s', `http://127.0.0.1:${healthPort}/health`])) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', state: 'synced', appliedRevision: '2', peerCount: 2 });
  }, 90_000);
});
