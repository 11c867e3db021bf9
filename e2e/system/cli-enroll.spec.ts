import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { ADMIN_PASSWORD } from '../support/constants';
import {
  AgentProcess,
  ApiProcess,
  buildAgent,
  dropDatabase,
  freePort,
  GiveUp,
  killPids,
  parsePeers,
  REPO_ROOT,
  recreateDatabase,
  TcpForwarder,
  waitFor,
  wireguardGoPids,
} from './support/gateway-lab';
import { Namespace, requireRoot, run } from './support/host';

/**
 * Issue 15 §3: a server enrols itself with one command. An admin issues a CLI token for a network
 * device that does not exist yet; `palisade enroll --up` (the built CLI bundle) runs in a network
 * namespace, generates its key there, redeems the token through the API and brings the tunnel up
 * with wg-quick (which falls back to wireguard-go: no kernel module here). The machine then pings
 * the location's address through the real agent; `palisade status` shows the handshake, and
 * `palisade down` takes the tunnel down. The spent token is refused on a second run.
 *
 *   host (API, forwarders on 10.236.S.1 and 10.237.S.1) ─ veth ─ gateway ns (agent, wireguard-go,
 *   10.236.S.2; 10.238.S.1) ─ veth ─ server ns (10.238.S.2; palisade enroll) ─ veth ─ host
 *   (the server reaches the API's HTTP port through 10.237.S.1)
 */
const suffix = `${process.pid % 1000}${Math.floor(Math.random() * 900 + 100)}`;
const S = Number(suffix) % 250;
const GATEWAY_IF = `pcg${suffix}`;
const SERVER_IF = `pcs${suffix}`;
const TUNNEL_GATEWAY_IP = `10.239.${S}.1`;
const DATABASE = `palisade_system_cli_${suffix}`;
const CLI = `${REPO_ROOT}apps/cli/bin/palisade.mjs`;

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

/** Runs the CLI inside the namespace; resolves with its exit code and output (never throws on exit codes). */
function palisade(ns: Namespace, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('ip', ['netns', 'exec', ns.name, process.execPath, CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

/** PIDs of wireguard-go daemons wg-quick started for `ifname` (argv `wireguard-go <ifname>`). */
function daemonPids(ifname: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv[0]?.endsWith('wireguard-go') && argv.at(-1) === ifname) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

test('palisade enroll --up in a namespace: the server reaches the location through the real agent', async () => {
  test.setTimeout(180_000);
  requireRoot();
  await buildAgent();
  await run(process.execPath, [`${REPO_ROOT}apps/cli/scripts/build.mjs`]);
  const namespaces: Namespace[] = [];
  const agent = new AgentProcess();
  let api: ApiProcess | undefined;
  const forwarders: TcpForwarder[] = [];
  let http: APIRequestContext | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'palisade-cli-sys-'));
  const configDir = join(dir, 'wireguard');
  try {
    // --- Topology
    const gw = await Namespace.create(`pcl-sys-gw-${suffix}`);
    namespaces.push(gw);
    const server = await Namespace.create(`pcl-sys-sv-${suffix}`);
    namespaces.push(server);
    await run('ip', ['link', 'add', `pch${suffix}`, 'type', 'veth', 'peer', 'name', `pcj${suffix}`, 'netns', gw.name]);
    await run('ip', ['addr', 'add', `10.236.${S}.1/24`, 'dev', `pch${suffix}`]);
    await run('ip', ['link', 'set', `pch${suffix}`, 'up']);
    await gw.exec('ip', ['addr', 'add', `10.236.${S}.2/24`, 'dev', `pcj${suffix}`]);
    await gw.exec('ip', ['link', 'set', `pcj${suffix}`, 'up']);
    await run('ip', ['-n', gw.name, 'link', 'add', `pcu${suffix}`, 'type', 'veth', 'peer', 'name', `pcv${suffix}`, 'netns', server.name]);
    await gw.exec('ip', ['addr', 'add', `10.238.${S}.1/24`, 'dev', `pcu${suffix}`]);
    await gw.exec('ip', ['link', 'set', `pcu${suffix}`, 'up']);
    await server.exec('ip', ['addr', 'add', `10.238.${S}.2/24`, 'dev', `pcv${suffix}`]);
    await server.exec('ip', ['link', 'set', `pcv${suffix}`, 'up']);
    await run('ip', ['link', 'add', `pck${suffix}`, 'type', 'veth', 'peer', 'name', `pcw${suffix}`, 'netns', server.name]);
    await run('ip', ['addr', 'add', `10.237.${S}.1/24`, 'dev', `pck${suffix}`]);
    await run('ip', ['link', 'set', `pck${suffix}`, 'up']);
    await server.exec('ip', ['addr', 'add', `10.237.${S}.2/24`, 'dev', `pcw${suffix}`]);
    await server.exec('ip', ['link', 'set', `pcw${suffix}`, 'up']);

    // --- The API; its gRPC port for the gateway, its HTTP port for the enrolling server
    const grpcPort = await freePort();
    api = new ApiProcess(await freePort(), {
      DATABASE_URL: await recreateDatabase(DATABASE),
      DATA_DIR: dir,
      SECRET_KEY: 'system-test-secret-key-system-test-secret-key',
      ADMIN_PASSWORD,
      GRPC_PORT: String(grpcPort),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    await api.start();
    const grpc = await TcpForwarder.start(`10.236.${S}.1`, grpcPort);
    forwarders.push(grpc);
    const web = await TcpForwarder.start(`10.237.${S}.1`, api.port);
    forwarders.push(web);
    http = await request.newContext({ baseURL: api.url });
    expect((await http.post('/api/v1/auth', { data: { username: 'admin', password: ADMIN_PASSWORD } })).status()).toBe(200);

    const listenPort = 52000 + (Number(suffix) % 1000);
    const location = await json<{ id: number; pubkey: string }>(
      await http.post('/api/v1/network', {
        data: {
          name: `cli-sys-${suffix}`,
          address: [`${TUNNEL_GATEWAY_IP}/24`],
          endpoint: `10.238.${S}.1`,
          port: listenPort,
          // A DNS server: this host has no resolvconf, so the CLI must bring the tunnel up without it.
          dns: [TUNNEL_GATEWAY_IP],
          allowed_ips: [`10.239.${S}.0/24`],
          keepalive_interval: 25,
        },
      }),
      201,
    );
    const gatewayToken = await json<{ token: string }>(await http.get(`/api/v1/network/${location.id}/token`), 200);
    agent.start(gw.name, [
      ...['--grpc-url', `http://10.236.${S}.1:${grpc.port}`, '--token', gatewayToken.token],
      ...['--ifname', GATEWAY_IF, '--userspace', 'always', '--stats-interval', '1', '--health-port', '0'],
    ]);
    const gatewayDump = async () => (await gw.exec('wg', ['show', GATEWAY_IF, 'dump'])).trim();
    await waitFor(
      'the agent to apply the location',
      async () => {
        if (agent.exitCode !== null) throw new GiveUp(`agent exited with ${agent.exitCode}:\n${agent.output.join('\n')}`);
        const head = (await gatewayDump()).split('\n')[0]?.split('\t');
        return head?.[2] === String(listenPort) ? true : undefined;
      },
      30_000,
    );

    // --- The admin announces the server and issues its CLI token
    const issued = await json<{ token: string }>(
      await http.post('/api/v1/device/network/start_cli', { data: { name: `srv-${suffix}`, location_id: location.id } }),
      201,
    );

    // --- On the server: one command
    const url = `http://10.237.${S}.1:${web.port}`;
    const enrolled = await palisade(server, [
      ...['enroll', '--url', url, '--token', issued.token],
      ...['--interface', SERVER_IF, '--config-dir', configDir, '--up'],
    ]);
    expect(enrolled.code, enrolled.out).toBe(0);
    expect(enrolled.out).toContain(`${SERVER_IF} is up`);
    expect(enrolled.out).toContain('without its DNS servers');
    const file = join(configDir, `${SERVER_IF}.conf`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const privateKey = /^PrivateKey = (.+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
    const publicKey = (await run('wg', ['pubkey'], `${privateKey}\n`)).trim();

    // The device exists with the key made on the server, and is no longer pending.
    const devices = await json<{ items: { name: string; wireguard_pubkey: string }[] }>(
      await http.get(`/api/v1/device/network?search=srv-${suffix}`),
      200,
    );
    expect(devices.items.map((d) => [d.name, d.wireguard_pubkey])).toEqual([[`srv-${suffix}`, publicKey]]);
    expect(await json<unknown[]>(await http.get('/api/v1/device/network/pending'), 200)).toEqual([]);

    // --- Through the real agent
    await waitFor('the server on the gateway', async () => parsePeers(await gatewayDump()).get(publicKey), 10_000, 50);
    await waitFor(
      'a ping through the tunnel',
      async () => ((await server.exec('ping', ['-c', '1', '-W', '2', TUNNEL_GATEWAY_IP]).catch(() => undefined)) ? true : undefined),
      20_000,
      200,
    );
    const status = await palisade(server, ['status', '--interface', SERVER_IF, '--config-dir', configDir]);
    expect(status.code, status.out).toBe(0);
    expect(status.out).toContain(`${SERVER_IF}: up`);
    expect(status.out).toContain(`peer ${location.pubkey}`);
    expect(status.out).toMatch(/latest handshake: \d+ s ago/);

    // --- The spent token is refused with the CLI's explanation, and nothing is overwritten
    const again = await palisade(server, [
      ...['enroll', '--url', url, '--token', issued.token],
      ...['--interface', `${SERVER_IF}b`, '--config-dir', configDir],
    ]);
    expect(again.code).toBe(1);
    expect(again.out).toContain('unknown, already used or expired');

    // --- Down
    const down = await palisade(server, ['down', '--interface', SERVER_IF, '--config-dir', configDir]);
    expect(down.code, down.out).toBe(0);
    await waitFor(
      'the server interface to disappear',
      async () => ((await server.exec('ip', ['link', 'show', SERVER_IF]).catch(() => 'gone')) === 'gone' ? true : undefined),
      10_000,
    );
    await expect(server.exec('ping', ['-c', '1', '-W', '1', TUNNEL_GATEWAY_IP])).rejects.toThrow();
  } catch (error) {
    console.log(`--- agent output\n${agent.output.slice(-40).join('\n')}\n--- API output\n${api?.output.slice(-20).join('\n') ?? ''}`);
    throw error;
  } finally {
    await http?.dispose();
    await agent.stop();
    killPids(wireguardGoPids(GATEWAY_IF));
    killPids(daemonPids(SERVER_IF));
    for (const f of forwarders) await f.close();
    await api?.stop();
    for (const ns of namespaces.reverse()) await ns.destroy();
    for (const link of [`pch${suffix}`, `pck${suffix}`]) await run('ip', ['link', 'del', link]).catch(() => undefined);
    await dropDatabase(DATABASE);
    rmSync(dir, { recursive: true, force: true });
  }
});
