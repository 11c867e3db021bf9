import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, request, test } from '@playwright/test';
import autocannon from 'autocannon';
import { ADMIN_PASSWORD } from '../support/constants';
import { ApiProcess, buildAgent, databaseUrl, freePort, parsePeers, waitFor } from './support/gateway-lab';
import { requireRoot, uniqueSuffix } from './support/host';
import { LoadBalancer } from './support/load-balancer';
import { gatewayDump, json, listensOn, note, wgKeyPair, withSystemLab } from './support/system-lab';

/**
 * Issue "Operations" §3, replicas (docs/operations.md#replicas): two API processes on one
 * PostgreSQL database behind a load balancer (support/load-balancer.ts: HTTP round-robin over the
 * processes whose readiness answers 200, gRPC passed through as TCP), a real gateway agent
 * connected through the balancer, and steady bounded load (autocannon: 4 connections, capped
 * rate, authenticated GETs). Each process in turn gets SIGTERM (it drains: readiness 503 while
 * still serving, then closes), exits, starts again and rejoins. Checks: no failed request at all,
 * both processes exit 0, the session made before still works, the agent reconnects to the other
 * process within 2 s every time its stream ends, and a device created while the agent's process is
 * down reaches the agent's WireGuard interface.
 */
const suffix = uniqueSuffix();
const S = Number(suffix) % 250;
const GATEWAY_IF = `prg${suffix}`;
const SECRET_KEY = 'replicas-test-secret-key-replicas-test-secret-key';

test('a rolling restart of two API replicas under load fails no request; sessions and gateways follow', async () => {
  test.setTimeout(180_000);
  requireRoot();
  await buildAgent();
  await withSystemLab('rep', suffix, async (lab) => {
    const gw = await lab.namespace(`prep-gw-${suffix}`);
    await lab.veth(
      { ifname: `prh${suffix}`, address: `10.234.${S}.1/24` },
      { ns: gw, ifname: `prn${suffix}`, address: `10.234.${S}.2/24` },
    );

    // --- Two API processes on one database, the same SECRET_KEY, a short drain
    const common = { SECRET_KEY, SHUTDOWN_DRAIN_SECONDS: '2', LOG_LEVEL: 'info' };
    const { api: a, grpcPort: grpcA } = await lab.startApi(common);
    const dirB = mkdtempSync(join(tmpdir(), 'palisade-rep-b-'));
    const grpcB = await freePort();
    const b = new ApiProcess(await freePort(), {
      DATABASE_URL: databaseUrl(lab.database),
      DATA_DIR: dirB,
      ADMIN_PASSWORD,
      GRPC_PORT: String(grpcB),
      RATE_LIMIT_PER_MINUTE: '0',
      UPDATE_CHECK_ENABLED: 'false',
      ...common,
    });
    lab.onTeardown(async () => {
      await b.stop();
      rmSync(dirB, { recursive: true, force: true });
    });
    await b.start();

    const lb = new LoadBalancer(
      [
        { name: 'a', httpPort: a.port, grpcPort: grpcA },
        { name: 'b', httpPort: b.port, grpcPort: grpcB },
      ],
      { healthIntervalMs: 200, grpcHost: `10.234.${S}.1` },
    );
    lab.onTeardown(() => lb.close());
    await lb.start();
    await waitFor('both processes in rotation', async () => (lb.isHealthy('a') && lb.isHealthy('b') ? true : undefined), 20_000);

    // --- A session and a location through the balancer; the agent connects through it too
    const http = await request.newContext({ baseURL: lb.url });
    lab.onTeardown(() => http.dispose());
    await json(await http.post('/api/v1/auth', { data: { username: 'admin', password: ADMIN_PASSWORD } }), 200);
    const cookie = (await http.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect(cookie).not.toBe('');
    const listenPort = 52000 + (Number(suffix) % 1000);
    const location = await json<{ id: number }>(
      await http.post('/api/v1/network', {
        data: {
          name: `rep-sys-${suffix}`,
          address: [`10.235.${S}.1/24`],
          endpoint: `10.234.${S}.2`,
          port: listenPort,
          dns: [],
          allowed_ips: [`10.235.${S}.0/24`],
          keepalive_interval: 25,
        },
      }),
      201,
    );
    const token = await json<{ token: string }>(await http.get(`/api/v1/network/${location.id}/token`), 200);
    await lab.startAgent(
      gw,
      { grpcUrl: `http://10.234.${S}.1:${lb.grpcPort}`, token: token.token, ifname: GATEWAY_IF, statsIntervalS: 1 },
      'the agent to apply the location through the balancer',
      () => listensOn(gw, GATEWAY_IF, listenPort),
    );
    const peerOnGateway = async (publicKey: string) => parsePeers(await gatewayDump(gw, GATEWAY_IF)).get(publicKey);
    const addDevice = async (name: string) => {
      const keys = await wgKeyPair();
      await json(await http.post('/api/v1/device/admin', { data: { name, wireguard_pubkey: keys.publicKey } }), 201);
      return keys.publicKey;
    };
    const first = await addDevice('before-restarts');
    await waitFor('a first device on the gateway', () => peerOnGateway(first), 15_000, 50);

    // --- Steady bounded load: 4 connections, at most 60 requests/s, authenticated GETs
    const statuses = new Map<number, number>();
    const errors: string[] = [];
    const load = autocannon({
      url: lb.url,
      connections: 4,
      overallRate: 60,
      duration: 150,
      headers: { cookie },
      requests: [
        { method: 'GET', path: '/api/v1/me' },
        { method: 'GET', path: '/api/v1/user' },
        { method: 'GET', path: `/api/v1/network/${location.id}` },
      ],
    });
    load.on('response', (_client: unknown, status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
    load.on('reqError', (error: Error) => errors.push(error.message));
    const answered = () => [...statuses.values()].reduce((sum, n) => sum + n, 0);
    await waitFor('load to flow', async () => (answered() >= 30 ? true : undefined), 20_000);

    // --- Rolling restart: A, then B
    const moves: number[] = [];
    const agentBackend = () => {
      const open = lb.tcpEvents.filter((e) => e.kind === 'open');
      const last = open.at(-1);
      return last && !lb.tcpEvents.some((e) => e.kind === 'close' && e.connection === last.connection) ? last : undefined;
    };
    const changesDuringRestart: string[] = [];
    const exits: { name: string; exit: ApiProcess['lastExit']; drained: boolean }[] = [];
    for (const [name, api] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const holder = await waitFor(
        `the agent connected through the balancer before restarting ${name}`,
        async () => agentBackend(),
        15_000,
      );
      const before = answered();
      await api.kill('SIGTERM');
      exits.push({ name, exit: api.lastExit, drained: api.output.some((line) => line.includes('draining')) });
      if (holder.backend === name) {
        // The agent's stream ended when the process closed: it must be on the other process now.
        const ended = await waitFor(
          `the agent's connection to ${name} to close`,
          async () => lb.tcpEvents.find((e) => e.kind === 'close' && e.connection === holder.connection),
          5_000,
          25,
        );
        const next = await waitFor('the agent to reconnect', async () => agentBackend(), 10_000, 25);
        expect(next.backend).not.toBe(name);
        // From the old connection's close to the new one's open, as the balancer saw them. It can be
        // slightly negative: the agent reconnects on the SERVER_SHUTDOWN message, before the closed
        // TCP connection reaches the balancer.
        moves.push(next.at - ended.at);
        note(`agent reconnected to ${next.backend} after its stream on ${name} ended`, next.at - ended.at);
        // A change made while the agent's former process is down reaches the agent.
        const key = await addDevice(`while-${name}-down`);
        changesDuringRestart.push(key);
        const createdAt = Date.now();
        await waitFor(`the device created while ${name} was down on the gateway`, () => peerOnGateway(key), 15_000, 50);
        note(`device created while ${name} was down, on the gateway after`, Date.now() - createdAt);
      }
      await api.start();
      await waitFor(`${name} back in rotation`, async () => (lb.isHealthy(name) ? true : undefined), 20_000);
      await waitFor(`load to flow on after restarting ${name}`, async () => (answered() >= before + 30 ? true : undefined), 20_000);
    }
    load.stop();
    const result = await load;
    console.log(
      `requests answered during the rolling restart: ${answered()}, sent again after a refused connection: ${lb.retriedRequests}`,
    );

    // --- No failed request, sessions survived, the agent followed within 2 s every time
    expect(lb.failures, 'requests the balancer could not serve').toEqual([]);
    expect(errors, 'request errors').toEqual([]);
    expect(Object.fromEntries(statuses), 'response statuses').toEqual({ 200: answered() });
    expect(result.errors + result.timeouts + result.non2xx).toBe(0);
    // Each process drained (logged it) and exited 0.
    expect(exits).toEqual(['a', 'b'].map((name) => ({ name, exit: { code: 0, signal: null }, drained: true })));
    for (const api of [a, b]) {
      const res = await fetch(`${api.url}/api/v1/me`, { headers: { cookie } });
      expect(res.status, `the session made before, on ${api.url}`).toBe(200);
    }
    expect((await http.get('/api/v1/me')).status()).toBe(200);
    expect(moves.length, 'the agent moved at least once').toBeGreaterThanOrEqual(1);
    for (const ms of moves) expect(ms).toBeLessThan(2000);
    for (const key of changesDuringRestart) expect(await peerOnGateway(key)).toBeTruthy();
    expect(lab.agent.output.join('\n')).toContain('reconnecting in 0.0 s');
  });
});
