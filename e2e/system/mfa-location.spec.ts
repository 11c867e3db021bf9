import { expect, test } from '@playwright/test';
import { generateSync } from 'otplib';
import { buildAgent, parsePeers, sleep, waitFor } from './support/gateway-lab';
import { requireRoot, uniqueSuffix } from './support/host';
import {
  bringUpClient,
  downloadConfig,
  gatewayDump,
  json,
  listensOn,
  note,
  setClientConfig,
  wgKeyPair,
  withSystemLab,
} from './support/system-lab';

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
/** The smallest peer_disconnect_threshold the API accepts (NetworkBodySchema). */
const THRESHOLD_S = 60;
/** The expiry job's period (VPN_SESSION_SWEEP_MS). */
const SWEEP_MS = 10_000;

/** The authenticator code `stepsAhead` time steps from now (the API accepts ±1 step, each step once). */
const totpCode = (secret: string, stepsAhead = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

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
  await withSystemLab('mfa', suffix, async (lab) => {
    // --- Topology: host ── gateway ns ── client ns
    const gw = await lab.namespace(`pmf-sys-gw-${suffix}`);
    const client = await lab.namespace(`pmf-sys-cl-${suffix}`);
    await lab.veth(
      { ifname: `pmh${suffix}`, address: `10.234.${S}.1/24` },
      { ns: gw, ifname: `pmg${suffix}`, address: `10.234.${S}.2/24` },
    );
    await lab.veth(
      { ns: gw, ifname: `pmu${suffix}`, address: `10.235.${S}.1/24` },
      { ns: client, ifname: `pmv${suffix}`, address: `10.235.${S}.2/24` },
    );

    // --- The API (with its jobs, as main.ts runs them) on PostgreSQL
    const { grpcPort } = await lab.startApi();
    const forwarder = await lab.forward(`10.234.${S}.1`, grpcPort);
    const http = await lab.signInAdmin();

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
    const grpcUrl = `http://10.234.${S}.1:${forwarder.port}`;
    await lab.startAgent(
      gw,
      { grpcUrl, token: token.token, ifname: GATEWAY_IF, statsIntervalS: 1 },
      'the agent to apply the location',
      () => listensOn(gw, GATEWAY_IF, listenPort),
    );
    const peerOnGateway = async (publicKey: string) => parsePeers(await gatewayDump(gw, GATEWAY_IF)).get(publicKey);

    // --- The admin turns on an authenticator app (the previous step's code, so the current and next stay unused)
    const totp = await json<{ secret: string }>(await http.post('/api/v1/auth/totp/init'), 200);
    await json(await http.post('/api/v1/auth/totp', { data: { code: totpCode(totp.secret, -1) } }), 200);

    // --- The admin's device and its config for the location
    const keys = await wgKeyPair();
    const created = await json<{ device: { id: number } }>(
      await http.post('/api/v1/device/admin', { data: { name: 'laptop', wireguard_pubkey: keys.publicKey } }),
      201,
    );
    const config = await downloadConfig(http, location.id, created.device.id, keys.privateKey);
    expect(config).not.toMatch(/^PresharedKey/m);
    /** `wg setconf` of the downloaded config with the session's preshared key (a fresh peer each time). */
    const applyClientConfig = (presharedKey: string) =>
      setClientConfig(client, CLIENT_IF, config.replace(/^(PublicKey = .*)$/m, `$1\nPresharedKey = ${presharedKey}`), lab.dir);
    await bringUpClient(client, CLIENT_IF, config, lab.dir);
    const ping = (count = 1, waitS = 2) => client.exec('ping', ['-c', String(count), '-W', String(waitS), TUNNEL_GATEWAY_IP]);
    const pingWorks = (what: string) => waitFor(what, async () => ((await ping(1, 1)) ? true : undefined), 20_000, 200);

    // --- Without a session: no peer on the gateway, no tunnel
    await expect(ping(2, 2)).rejects.toThrow();
    expect(await peerOnGateway(keys.publicKey)).toBeUndefined();

    // --- The session: start, finish with a TOTP code; the peer arrives with the session's preshared key
    const startSession = async (stepsAhead: number) => {
      const challenge = await json<{ challenge: string }>(
        await http.post('/api/v1/vpn_session/start', { data: { location_id: location.id, device_pubkey: keys.publicKey } }),
        201,
      );
      const finished = await json<{ session: Session; preshared_key: string }>(
        await http.post('/api/v1/vpn_session/finish', {
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
    const listed = async () => (await json<Session[]>(await http.get('/api/v1/vpn_session'), 200)).find((s) => s.id === first.session.id);
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
  });
});
