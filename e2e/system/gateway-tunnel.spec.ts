import { expect, test } from '@playwright/test';
import { buildAgent, parsePeers, sleep, waitFor } from './support/gateway-lab';
import { requireRoot, uniqueSuffix } from './support/host';
import { bringUpClient, downloadConfig, gatewayDump, json, listensOn, note, wgKeyPair, withSystemLab } from './support/system-lab';

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

test('a client reaches the network through a real gateway; changes, outages and stats behave', async () => {
  test.setTimeout(240_000);
  requireRoot();
  await buildAgent();
  await withSystemLab('gw', suffix, async (lab) => {
    // --- Topology: host ── gateway ns ── client ns
    const gw = await lab.namespace(`pgw-sys-gw-${suffix}`);
    const client = await lab.namespace(`pgw-sys-cl-${suffix}`);
    await lab.veth(
      { ifname: `pgh${suffix}`, address: `10.231.${S}.1/24` },
      { ns: gw, ifname: `pgg${suffix}`, address: `10.231.${S}.2/24` },
    );
    await lab.veth(
      { ns: gw, ifname: `pgu${suffix}`, address: `10.232.${S}.1/24` },
      { ns: client, ifname: `pgv${suffix}`, address: `10.232.${S}.2/24` },
    );

    // --- The API on PostgreSQL, its gRPC port reachable from the gateway namespace
    const { api, grpcPort } = await lab.startApi();
    const forwarder = await lab.forward(`10.231.${S}.1`, grpcPort);
    const http = await lab.signInAdmin();

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
    const grpcUrl = `http://10.231.${S}.1:${forwarder.port}`;
    await lab.startAgent(
      gw,
      { grpcUrl, token: token.token, ifname: GATEWAY_IF, statsIntervalS: 1 },
      'the agent to apply the location (listen port and address)',
      async () => {
        const addresses = await gw.exec('ip', ['-j', 'addr', 'show', 'dev', GATEWAY_IF]);
        return (await listensOn(gw, GATEWAY_IF, listenPort)) && addresses.includes(`"${TUNNEL_GATEWAY_IP}"`);
      },
    );
    const peerOnGateway = async (publicKey: string) => parsePeers(await gatewayDump(gw, GATEWAY_IF)).get(publicKey);

    // --- Device A: created through the API, its peer appears on the gateway
    const keysA = await wgKeyPair();
    const created = await json<{ device: { id: number } }>(
      await http.post('/api/v1/device/admin', { data: { name: 'laptop-a', wireguard_pubkey: keysA.publicKey } }),
      201,
    );
    const deviceA = created.device.id;
    await waitFor('device A on the gateway', () => peerOnGateway(keysA.publicKey), 10_000, 50);

    // --- The client namespace brings the downloaded config up (wg-quick strip + wg setconf)
    const config = await downloadConfig(http, location.id, deviceA, keysA.privateKey);
    await bringUpClient(client, CLIENT_IF, config, lab.dir);

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
        const res = await http.get(`/api/v1/network/${location.id}/stats`);
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
  });
});
