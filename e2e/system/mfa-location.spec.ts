import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { generateSync } from 'otplib';
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
 * Issue 10 §4/§5: an MFA-protected location with the real agent on wireguard-go. The same
 * topology as gateway-tunnel.spec.ts (API on PostgreSQL as its own process, gateway namespace
 * with the agent, client namespace with the device's config downloaded through the API):
 *
 *   host (API, forwarder on 10.234.S.1) ── veth ── gateway ns (10.234.S.2; 10.235.S.1)
 *   ── veth ── client ns (10.235.S.2), tunnel 10.236.S.0/24
 *
 * Checks: the device has no peer on the gateway and no tunnel until its owner finishes a VPN
 * session with a TOTP code; then the peer appears with the session's preshared key and ping
 * works; without traffic, once the location's peer_disconnect_threshold has passed since the
 * last handshake (the agent's stats reports, every second here), the expiry job ends the session,
 * the peer leaves the gateway and ping fails. A second session ended with DELETE removes the peer
 * at once.
 */
const suffix = uniqueSuffix();
const S = Number(suffix) % 250;
const GATEWAY_IF = `pmt${suffix}`;
const CLIENT_IF = `pmc${suffix}`;
const TUNNEL_GATEWAY_IP = `10.236.${S}.1`;
const DATABASE = `palisade_system_mfa_${suffix}`;
/** The smallest peer_disconnect_threshold the API accepts (NetworkBodySchema). */
const THRESHOLD_S = 60;
/** The expiry job's period (VPN_SESSION_SWEEP_MS). */
const SWEEP_MS = 10_000;

async function wgKeyPair() {
  const privateKey = (await run('wg', ['genkey'])).trim();
  return { privateKey, publicKey: (await run('wg', ['pubkey'], `${privateKey}\n`)).trim() };
}

/** The authenticator code `stepsAhead` time steps from now (the API accepts ±1 step, each step once). */
const totpCode = (secret: string, stepsAhead = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** Timings worth seeing in the report (annotations) and in the run's output. */
const note = (what: string, ms: number) => {
  test.info().annotations.push({ type: 'timing', description: `${what} ${ms} ms` });
  console.log(`timing: ${what} ${ms} ms`);
};

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

interface Session {
  id: number;
  started_at: string;
  last_handshake: string | null;
  ended_at: string | null;
  end_reason: string | null;
}

test('an MFA-protected location admits a device only during a TOTP-authorised VPN session', async () => {
  test.setTimeout(300_000);
  requireRoot();
  await buildAgent();
  const namespaces: Namespace[] = [];
  const agent = new AgentProcess();
  let api: ApiProcess | undefined;
  let forwarder: TcpForwarder | undefined;
  let http: APIRequestContext | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'palisade-mfa-sys-'));
  try {
    // --- Topology
    const gw = await Namespace.create(`pmf-sys-gw-${suffix}`);
    namespaces.push(gw);
    const client = await Namespace.create(`pmf-sys-cl-${suffix}`);
    namespaces.push(client);
    await run('ip', ['link', 'add', `pmh${suffix}`, 'type', 'veth', 'peer', 'name', `pmg${suffix}`, 'netns', gw.name]);
    await run('ip', ['addr', 'add', `10.234.${S}.1/24`, 'dev', `pmh${suffix}`]);
    await run('ip', ['link', 'set', `pmh${suffix}`, 'up']);
    await gw.exec('ip', ['addr', 'add', `10.234.${S}.2/24`, 'dev', `pmg${suffix}`]);
    await gw.exec('ip', ['link', 'set', `pmg${suffix}`, 'up']);
    await run('ip', ['-n', gw.name, 'link', 'add', `pmu${suffix}`, 'type', 'veth', 'peer', 'name', `pmv${suffix}`, 'netns', client.name]);
    await gw.exec('ip', ['addr', 'add', `10.235.${S}.1/24`, 'dev', `pmu${suffix}`]);
    await gw.exec('ip', ['link', 'set', `pmu${suffix}`, 'up']);
    await client.exec('ip', ['addr', 'add', `10.235.${S}.2/24`, 'dev', `pmv${suffix}`]);
    await client.exec('ip', ['link', 'set', `pmv${suffix}`, 'up']);

    // --- The API (with its jobs, as main.ts runs them) on PostgreSQL
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
    forwarder = await TcpForwarder.start(`10.234.${S}.1`, grpcPort);
    http = await request.newContext({ baseURL: api.url });
    expect((await http.post('/api/v1/auth', { data: { username: 'admin', password: ADMIN_PASSWORD } })).status()).toBe(200);

    // No keepalive: once the test stops pinging, the tunnel is silent and no handshake follows.
    const listenPort = 52000 + (Number(suffix) % 1000);
    const location = await json<{ id: number }>(
      await http.post('/api/v1/network', {
        data: {
          name: `mfa-sys-${suffix}`,
          address: [`${TUNNEL_GATEWAY_IP}/24`],
          endpoint: `10.235.${S}.1`,
          port: listenPort,
          allowed_ips: [`10.236.${S}.0/24`],
          mfa_enabled: true,
          keepalive_interval: 0,
          peer_disconnect_threshold: THRESHOLD_S,
        },
      }),
      201,
    );
    const token = await json<{ token: string }>(await http.get(`/api/v1/network/${location.id}/token`), 200);

    // --- The agent, reporting peer stats every second (the expiry job reads the handshakes from them)
    agent.start(gw.name, [
      ...['--grpc-url', `http://10.234.${S}.1:${forwarder.port}`, '--token', token.token],
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
    const peerOnGateway = async (publicKey: string) => parsePeers(await gatewayDump()).get(publicKey);

    // --- The admin turns on an authenticator app (the previous step's code, so the current and next stay unused)
    const totp = await json<{ secret: string }>(await http.post('/api/v1/auth/totp/init'), 200);
    await json(await http.post('/api/v1/auth/totp', { data: { code: totpCode(totp.secret, -1) } }), 200);

    // --- The admin's device and its config for the location
    const keys = await wgKeyPair();
    const created = await json<{ device: { id: number } }>(
      await http.post('/api/v1/device/admin', { data: { name: 'laptop', wireguard_pubkey: keys.publicKey } }),
      201,
    );
    const download = await http.get(`/api/v1/network/${location.id}/device/${created.device.id}/config`);
    expect(download.status()).toBe(200);
    const config = (await download.text()).replace(/^PrivateKey = .*$/m, `PrivateKey = ${keys.privateKey}`);
    expect(config).not.toMatch(/^PresharedKey/m);
    const field = (name: string) =>
      (new RegExp(`^${name}\\s*=\\s*(.+)$`, 'm').exec(config)?.[1] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    /** `wg setconf` of the downloaded config, with the session's preshared key when given (a fresh peer each time). */
    const applyClientConfig = async (presharedKey?: string) => {
      const text = presharedKey ? config.replace(/^(PublicKey = .*)$/m, `$1\nPresharedKey = ${presharedKey}`) : config;
      const file = join(dir, `${CLIENT_IF}.conf`);
      writeFileSync(file, text, { mode: 0o600 });
      writeFileSync(join(dir, 'stripped.conf'), await run('wg-quick', ['strip', file]), { mode: 0o600 });
      await client.exec('wg', ['setconf', CLIENT_IF, join(dir, 'stripped.conf')]);
    };
    await client.startWireguardGo(CLIENT_IF);
    await applyClientConfig();
    for (const address of field('Address').filter((a) => !a.includes(':')))
      await client.exec('ip', ['addr', 'add', address, 'dev', CLIENT_IF]);
    await client.exec('ip', ['link', 'set', CLIENT_IF, 'up']);
    for (const net of field('AllowedIPs').filter((a) => !a.includes(':')))
      await client.exec('ip', ['route', 'replace', net, 'dev', CLIENT_IF]);
    const ping = (count = 1, waitS = 2) => client.exec('ping', ['-c', String(count), '-W', String(waitS), TUNNEL_GATEWAY_IP]);
    const pingWorks = (what: string) => waitFor(what, async () => ((await ping(1, 1)) ? true : undefined), 20_000, 200);

    // --- Without a session: no peer on the gateway, no tunnel
    await expect(ping(2, 2)).rejects.toThrow();
    expect(await peerOnGateway(keys.publicKey)).toBeUndefined();

    // --- The session: start, finish with a TOTP code; the peer arrives with the session's preshared key
    const startSession = async (stepsAhead: number) => {
      const challenge = await json<{ challenge: string }>(
        await http!.post('/api/v1/vpn_session/start', { data: { location_id: location.id, device_pubkey: keys.publicKey } }),
        201,
      );
      const finished = await json<{ session: Session; preshared_key: string }>(
        await http!.post('/api/v1/vpn_session/finish', {
          data: { challenge: challenge.challenge, code: totpCode(totp.secret, stepsAhead) },
        }),
        201,
      );
      const finishedAt = Date.now();
      const peer = await waitFor(
        'the session peer on the gateway',
        async () => {
          const p = await peerOnGateway(keys.publicKey);
          return p?.presharedKey ? p : undefined;
        },
        10_000,
        25,
      );
      note('session finished → peer on the gateway after', Date.now() - finishedAt);
      expect(peer.presharedKey).toBe(finished.preshared_key);
      return finished;
    };
    const first = await startSession(0);
    expect(first.session.end_reason).toBeNull();
    await applyClientConfig(first.preshared_key);
    // The first handshake two expiry sweeps after the session's start, so that an expiry counted
    // from the start rather than from the handshake the agent reported would show (a lower bound,
    // not a wait for something to happen).
    await sleep(2 * SWEEP_MS);
    await pingWorks('ping through the tunnel during the session');
    const handshake = await waitFor(
      'the handshake on the gateway',
      async () => {
        const p = await peerOnGateway(keys.publicKey);
        return p && p.latestHandshake > 0 ? p.latestHandshake * 1000 : undefined;
      },
      10_000,
    );
    // The agent's stats reach the API: the expiry job records the session's last handshake.
    const listed = async () => (await json<Session[]>(await http!.get('/api/v1/vpn_session'), 200)).find((s) => s.id === first.session.id);
    await waitFor('the reported handshake on the session', async () => ((await listed())?.last_handshake ? true : undefined), 45_000, 500);

    // --- No traffic now. After the threshold (plus up to one sweep) the session ends and the peer leaves.
    const removedAt = await waitFor(
      'the inactive session peer to leave the gateway',
      async () => ((await peerOnGateway(keys.publicKey)) ? undefined : Date.now()),
      THRESHOLD_S * 1000 + SWEEP_MS + 60_000,
      250,
    );
    note('peer removed after the last handshake', removedAt - handshake);
    expect(removedAt).toBeGreaterThanOrEqual(handshake + THRESHOLD_S * 1000 - 1_000);
    const ended = await listed();
    expect(ended?.end_reason).toBe('inactive');
    expect(Date.parse(ended?.ended_at ?? '')).toBeGreaterThanOrEqual(Date.parse(ended?.last_handshake ?? '') + THRESHOLD_S * 1000);
    await expect(ping(2, 2)).rejects.toThrow();
    expect(await peerOnGateway(keys.publicKey)).toBeUndefined();

    // --- A new session (the next step's code: the previous one is spent), disconnected by the user
    const second = await startSession(1);
    expect(second.preshared_key).not.toBe(first.preshared_key);
    await applyClientConfig(second.preshared_key);
    await pingWorks('ping through the tunnel during the second session');
    expect((await http.delete(`/api/v1/vpn_session/${second.session.id}`)).status()).toBe(204);
    const deletedAt = Date.now();
    await waitFor(
      'the disconnected peer to leave the gateway',
      async () => ((await peerOnGateway(keys.publicKey)) ? undefined : true),
      5_000,
      25,
    );
    note('disconnected session → peer off the gateway after', Date.now() - deletedAt);
    await expect(ping(2, 2)).rejects.toThrow();
  } catch (error) {
    console.log(`--- agent output\n${agent.output.slice(-40).join('\n')}\n--- API output\n${api?.output.slice(-20).join('\n') ?? ''}`);
    throw error;
  } finally {
    await http?.dispose();
    await agent.stop();
    killPids(wireguardGoPids(GATEWAY_IF));
    await forwarder?.close();
    await api?.stop();
    for (const ns of namespaces.reverse()) await ns.destroy();
    await run('ip', ['link', 'del', `pmh${suffix}`]).catch(() => undefined);
    await dropDatabase(DATABASE);
    rmSync(dir, { recursive: true, force: true });
  }
});
