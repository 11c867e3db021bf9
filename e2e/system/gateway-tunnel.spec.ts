import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  recreateDatabase,
  sleep,
  TcpForwarder,
  waitFor,
  wireguardGoPids,
} from './support/gateway-lab';
import { Namespace, requireRoot, run, uniqueSuffix } from './support/host';

/**
 * Issue "Gateways" §6: the whole product as a VPN. The built API on PostgreSQL (its own process,
 * so the test can stop and restart it), the real agent on wireguard-go in a gateway namespace,
 * and a client namespace using the config downloaded through the API:
 *
 *   host (API on 127.0.0.1, forwarder on 10.231.S.1) ── veth ── gateway ns (agent, wireguard-go,
 *   10.231.S.2; 10.232.S.1) ── veth ── client ns (10.232.S.2; wireguard-go with the device config)
 *
 * Tunnel addresses are 10.233.S.0/24 (S from the run's suffix). Checks, in order: ping through
 * the tunnel; a second device is added without touching the first peer (handshake and counters
 * kept); traffic shows in /network/{id}/stats; the API stops and the tunnel keeps working, it
 * restarts and the gateway resynchronises (a device created afterwards appears); deleting the
 * device removes its peer within 2 s and the ping fails.
 */
const suffix = uniqueSuffix();
const S = Number(suffix) % 250;
const GATEWAY_IF = `pgt${suffix}`;
const CLIENT_IF = `pgc${suffix}`;
const TUNNEL_GATEWAY_IP = `10.233.${S}.1`;
const DATABASE = `palisade_system_gw_${suffix}`;

async function wgKeyPair() {
  const privateKey = (await run('wg', ['genkey'])).trim();
  return { privateKey, publicKey: (await run('wg', ['pubkey'], `${privateKey}\n`)).trim() };
}

/** Timings worth seeing in the report (and in a failure's context). */
const note = (what: string, ms: number) => test.info().annotations.push({ type: 'timing', description: `${what} ${ms} ms` });

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

test('a client reaches the network through a real gateway; changes, outages and stats behave', async () => {
  test.setTimeout(240_000);
  requireRoot();
  await buildAgent();
  const namespaces: Namespace[] = [];
  const agent = new AgentProcess();
  let api: ApiProcess | undefined;
  let forwarder: TcpForwarder | undefined;
  let http: APIRequestContext | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'palisade-gw-sys-'));
  try {
    // --- Topology
    const gw = await Namespace.create(`pgw-sys-gw-${suffix}`);
    namespaces.push(gw);
    const client = await Namespace.create(`pgw-sys-cl-${suffix}`);
    namespaces.push(client);
    await run('ip', ['link', 'add', `pgh${suffix}`, 'type', 'veth', 'peer', 'name', `pgg${suffix}`, 'netns', gw.name]);
    await run('ip', ['addr', 'add', `10.231.${S}.1/24`, 'dev', `pgh${suffix}`]);
    await run('ip', ['link', 'set', `pgh${suffix}`, 'up']);
    await gw.exec('ip', ['addr', 'add', `10.231.${S}.2/24`, 'dev', `pgg${suffix}`]);
    await gw.exec('ip', ['link', 'set', `pgg${suffix}`, 'up']);
    await run('ip', ['-n', gw.name, 'link', 'add', `pgu${suffix}`, 'type', 'veth', 'peer', 'name', `pgv${suffix}`, 'netns', client.name]);
    await gw.exec('ip', ['addr', 'add', `10.232.${S}.1/24`, 'dev', `pgu${suffix}`]);
    await gw.exec('ip', ['link', 'set', `pgu${suffix}`, 'up']);
    await client.exec('ip', ['addr', 'add', `10.232.${S}.2/24`, 'dev', `pgv${suffix}`]);
    await client.exec('ip', ['link', 'set', `pgv${suffix}`, 'up']);

    // --- The API on PostgreSQL, its gRPC port reachable from the gateway namespace
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
    forwarder = await TcpForwarder.start(`10.231.${S}.1`, grpcPort);
    http = await request.newContext({ baseURL: api.url });
    expect((await http.post('/api/v1/auth', { data: { username: 'admin', password: ADMIN_PASSWORD } })).status()).toBe(200);

    const listenPort = 51000 + (Number(suffix) % 1000);
    const location = await json<{ id: number; pubkey: string }>(
      await http.post('/api/v1/network', {
        data: {
          name: `gw-sys-${suffix}`,
          address: [`${TUNNEL_GATEWAY_IP}/24`],
          endpoint: `10.232.${S}.1`,
          port: listenPort,
          dns: [],
          allowed_ips: [`10.233.${S}.0/24`],
          keepalive_interval: 25,
        },
      }),
      201,
    );
    const token = await json<{ token: string; grpc_url: string }>(await http.get(`/api/v1/network/${location.id}/token`), 200);
    expect(token.token).toBeTruthy();
    expect(token.grpc_url).toMatch(/^https?:\/\//);

    // --- The agent, as an operator runs it (flags), on wireguard-go in the gateway namespace
    agent.start(gw.name, [
      ...['--grpc-url', `http://10.231.${S}.1:${forwarder.port}`, '--token', token.token],
      ...['--ifname', GATEWAY_IF, '--userspace', 'always', '--stats-interval', '1', '--health-port', '0'],
    ]);
    const gatewayDump = async () => (await gw.exec('wg', ['show', GATEWAY_IF, 'dump'])).trim();
    await waitFor(
      'the agent to apply the location (listen port and address)',
      async () => {
        if (agent.exitCode !== null) throw new GiveUp(`agent exited with ${agent.exitCode}:\n${agent.output.join('\n')}`);
        const head = (await gatewayDump()).split('\n')[0]?.split('\t');
        const addresses = await gw.exec('ip', ['-j', 'addr', 'show', 'dev', GATEWAY_IF]);
        return head?.[2] === String(listenPort) && addresses.includes(`"${TUNNEL_GATEWAY_IP}"`) ? true : undefined;
      },
      30_000,
    );
    const peerOnGateway = async (publicKey: string) => parsePeers(await gatewayDump()).get(publicKey);

    // --- Device A: created through the API, its peer appears on the gateway
    const keysA = await wgKeyPair();
    const created = await json<{ device: { id: number } }>(
      await http.post('/api/v1/device/admin', { data: { name: 'laptop-a', wireguard_pubkey: keysA.publicKey } }),
      201,
    );
    const deviceA = created.device.id;
    await waitFor('device A on the gateway', () => peerOnGateway(keysA.publicKey), 10_000, 50);

    // --- The client namespace brings the downloaded config up (wg-quick strip + wg setconf)
    const download = await http.get(`/api/v1/network/${location.id}/device/${deviceA}/config`);
    expect(download.status()).toBe(200);
    const config = (await download.text()).replace(/^PrivateKey = .*$/m, `PrivateKey = ${keysA.privateKey}`);
    const file = join(dir, `${CLIENT_IF}.conf`);
    writeFileSync(file, config, { mode: 0o600 });
    writeFileSync(join(dir, 'stripped.conf'), await run('wg-quick', ['strip', file]), { mode: 0o600 });
    const field = (name: string) =>
      (new RegExp(`^${name}\\s*=\\s*(.+)$`, 'm').exec(config)?.[1] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    await client.startWireguardGo(CLIENT_IF);
    await client.exec('wg', ['setconf', CLIENT_IF, join(dir, 'stripped.conf')]);
    for (const address of field('Address').filter((a) => !a.includes(':')))
      await client.exec('ip', ['addr', 'add', address, 'dev', CLIENT_IF]);
    await client.exec('ip', ['link', 'set', CLIENT_IF, 'up']);
    for (const net of field('AllowedIPs').filter((a) => !a.includes(':')))
      await client.exec('ip', ['route', 'replace', net, 'dev', CLIENT_IF]);

    const ping = (count = 1, waitS = 2) => client.exec('ping', ['-c', String(count), '-W', String(waitS), TUNNEL_GATEWAY_IP]);
    await ping(3, 5);
    const a1 = await waitFor(
      'a handshake of device A',
      async () => {
        const p = await peerOnGateway(keysA.publicKey);
        return p && p.latestHandshake > 0 && p.rxBytes > 0 ? p : undefined;
      },
      10_000,
    );

    // --- Device B: the gateway adds its peer and leaves A's handshake and counters alone
    const keysB = await wgKeyPair();
    await json(await http.post('/api/v1/device/admin', { data: { name: 'laptop-b', wireguard_pubkey: keysB.publicKey } }), 201);
    const createdB = Date.now();
    await waitFor('device B on the gateway', () => peerOnGateway(keysB.publicKey), 10_000, 50);
    note('new device on the gateway after', Date.now() - createdB);
    const a2 = (await peerOnGateway(keysA.publicKey))!;
    expect(a2.latestHandshake).toBe(a1.latestHandshake);
    expect(a2.rxBytes).toBeGreaterThanOrEqual(a1.rxBytes);
    expect(a2.txBytes).toBeGreaterThanOrEqual(a1.txBytes);
    expect(a2.endpoint).toBe(a1.endpoint);
    await ping();

    // --- Traffic shows in the location's stats
    const stats = await waitFor(
      'traffic in /network/{id}/stats',
      async () => {
        await ping().catch(() => undefined);
        const res = await http!.get(`/api/v1/network/${location.id}/stats`);
        if (res.status() !== 200) throw new Error(`stats: ${res.status()} ${await res.text()}`);
        const body = (await res.json()) as { upload: number; download: number; active_user_devices: number };
        return body.upload > 0 && body.download > 0 ? body : undefined;
      },
      45_000,
      1_000,
    );
    expect(stats.active_user_devices).toBeGreaterThanOrEqual(1);

    // --- The API goes away: the tunnel stays up. It comes back: the gateway resynchronises.
    await api.stop();
    for (let i = 0; i < 3; i++) {
      await ping();
      await sleep(500);
    }
    await api.start();
    await ping();
    const keysC = await wgKeyPair();
    await json(await http.post('/api/v1/device/admin', { data: { name: 'laptop-c', wireguard_pubkey: keysC.publicKey } }), 201);
    const createdAt = Date.now();
    // Up to the agent's reconnect backoff (≤ 16 s after a short outage) plus the resync.
    await waitFor('device C on the gateway after the API restart', () => peerOnGateway(keysC.publicKey), 45_000, 100);
    note('device created after the API restart, on the gateway after', Date.now() - createdAt);
    expect((await peerOnGateway(keysA.publicKey))?.latestHandshake).toBeGreaterThan(0);
    await ping();

    // --- Deleting device A removes its peer within 2 s, and the tunnel stops working
    expect((await http.delete(`/api/v1/device/${deviceA}`)).status()).toBe(204);
    const deletedAt = Date.now();
    await waitFor('device A to leave the gateway', async () => ((await peerOnGateway(keysA.publicKey)) ? undefined : true), 2_000, 25);
    expect(Date.now() - deletedAt).toBeLessThanOrEqual(2_000);
    note('deleted device off the gateway after', Date.now() - deletedAt);
    await expect(ping(1, 2)).rejects.toThrow();
    expect(await peerOnGateway(keysB.publicKey)).toBeTruthy();
  } catch (error) {
    // The agent's and the API's last lines make a failure readable.
    console.log(`--- agent output\n${agent.output.slice(-40).join('\n')}\n--- API output\n${api?.output.slice(-20).join('\n') ?? ''}`);
    throw error;
  } finally {
    await http?.dispose();
    await agent.stop();
    killPids(wireguardGoPids(GATEWAY_IF));
    await forwarder?.close();
    await api?.stop();
    for (const ns of namespaces.reverse()) await ns.destroy();
    await run('ip', ['link', 'del', `pgh${suffix}`]).catch(() => undefined);
    await dropDatabase(DATABASE);
    rmSync(dir, { recursive: true, force: true });
  }
});
