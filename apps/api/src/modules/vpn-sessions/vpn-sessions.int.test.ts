import { sql } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { connectGateway, createGrpcApp, deltaOf, type GrpcTestApp, snapshotOf, type TestGateway } from '#test/gateway-support.js';
import { ADMIN_PASSWORD, ensureWorkerDatabase, USER_PASSWORD, userBody } from '#test/helpers.js';
import { wrongCode } from '#test/mfa-fixtures.js';
import { createLocation, newKey } from '#test/network-fixtures.js';
import { expireVpnSessions } from './vpn-sessions.job.js';

/**
 * VPN sessions of MFA-protected locations end to end: REST calls, real PostgreSQL, a real gRPC
 * stream of a gateway that must see the device's peer only while a session is active.
 */
let t: GrpcTestApp;
let db: DatabaseHandle;
const open: TestGateway[] = [];

beforeAll(async () => {
  db = await openDatabase({ databaseUrl: await ensureWorkerDatabase(), dataDir: '/nonexistent', poolSize: 2 });
});
beforeEach(async () => {
  for (const g of open.splice(0)) g.close();
  await t?.close();
  t = await createGrpcApp();
});
afterAll(async () => {
  for (const g of open) g.close();
  await t.close();
  await db.close();
});

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as string }) });

const code = (secret: string, offset: number) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/** Enables TOTP with the previous step's code, so the current and next steps stay usable. */
async function enableTotp(cookie: string): Promise<string> {
  const init = await req('POST', '/api/v1/auth/totp/init', cookie);
  expect(init.statusCode).toBe(200);
  const secret = init.json().secret as string;
  const enabled = await req('POST', '/api/v1/auth/totp', cookie, { code: code(secret, -1) });
  expect(enabled.statusCode).toBe(200);
  return secret;
}

async function gatewayOf(locationId: number): Promise<TestGateway> {
  const token = (await req('GET', `/api/v1/network/${locationId}/token`, t.admin)).json().token as string;
  const g = connectGateway(t.port, token);
  open.push(g);
  return g;
}

const peerUpsert = (g: TestGateway, key: string) =>
  g.waitFor('peer upsert', (m) => {
    for (const o of deltaOf(m)?.ops ?? []) if (o.op.case === 'peerUpsert' && o.op.value.peer?.publicKey === key) return o.op.value.peer;
    return undefined;
  });
const peerRemove = (g: TestGateway, key: string, after: number) =>
  g.waitFor('peer remove', (m) =>
    g.received.indexOf(m) >= after && deltaOf(m)?.ops.some((o) => o.op.case === 'peerRemove' && o.op.value.publicKey === key)
      ? true
      : undefined,
  );

async function setup() {
  const mfa = await createLocation(t.app, t.admin, { name: 'secure', address: ['10.110.0.1/24'], mfa_enabled: true });
  const plain = await createLocation(t.app, t.admin, { name: 'plain', address: ['10.111.0.1/24'] });
  const key = newKey();
  const device = await req('POST', '/api/v1/device/admin', t.admin, { name: 'laptop', wireguard_pubkey: key });
  expect(device.statusCode).toBe(201);
  return { mfa, plain, key, deviceId: device.json().device.id as number };
}

describe('VPN sessions of MFA-protected locations', () => {
  it('pushes the peer only after the MFA, with the session preshared key, and removes it on disconnect', async () => {
    const { mfa, plain, key } = await setup();
    const g = await gatewayOf(mfa.id);
    const first = await g.waitFor('snapshot', snapshotOf);
    expect(first.peers.map((p) => p.publicKey)).not.toContain(key);
    const other = await gatewayOf(plain.id);
    expect((await other.waitFor('snapshot', snapshotOf)).peers.map((p) => p.publicKey)).toContain(key);

    const start = { location_id: mfa.id, device_pubkey: key };
    expect((await req('POST', '/api/v1/vpn_session/start', t.admin, start)).json().code).toBe('vpn_session.mfa_not_enabled');
    const secret = await enableTotp(t.admin);
    expect((await req('POST', '/api/v1/vpn_session/start', t.admin, { ...start, location_id: plain.id })).json().code).toBe(
      'vpn_session.location_not_mfa',
    );
    expect((await req('POST', '/api/v1/vpn_session/start', t.admin, { ...start, device_pubkey: newKey() })).statusCode).toBe(404);

    // A wrong code leaves the challenge pending: the right code then finishes it.
    const c2 = await req('POST', '/api/v1/vpn_session/start', t.admin, start);
    expect(c2.statusCode).toBe(201);
    expect(c2.json()).toMatchObject({ method: 'totp', methods: ['totp'] });
    const bad = await req('POST', '/api/v1/vpn_session/finish', t.admin, { challenge: c2.json().challenge, code: wrongCode(secret) });
    expect(bad.json().code).toBe('auth.invalid_code');
    // One code string throughout: recomputing it later could cross a 30 s step and yield a new, valid code.
    const used = code(secret, 0);
    const done = await req('POST', '/api/v1/vpn_session/finish', t.admin, { challenge: c2.json().challenge, code: used });
    expect(done.statusCode).toBe(201);
    const psk = done.json().preshared_key as string;
    expect(Buffer.from(psk, 'base64')).toHaveLength(32);
    expect(done.json().session).toMatchObject({ location_id: mfa.id, location_name: 'secure', ended_at: null });
    const peer = await peerUpsert(g, key);
    expect(peer.presharedKey).toBe(psk);
    // The same challenge cannot start a second session, and the code cannot be replayed.
    const again = await req('POST', '/api/v1/vpn_session/finish', t.admin, { challenge: c2.json().challenge, code: used });
    expect(again.json().code).toBe('vpn_session.challenge_invalid');
    const c3 = await req('POST', '/api/v1/vpn_session/start', t.admin, start);
    const replay = await req('POST', '/api/v1/vpn_session/finish', t.admin, { challenge: c3.json().challenge, code: used });
    expect(replay.json().code).toBe('auth.invalid_code');

    // A gateway connecting now (it replaces the first stream) gets the peer in its snapshot, with the key.
    const late = await gatewayOf(mfa.id);
    const snap = await late.waitFor('snapshot', snapshotOf);
    expect(snap.peers.find((p) => p.publicKey === key)?.presharedKey).toBe(psk);

    const list = await req('GET', '/api/v1/vpn_session', t.admin);
    expect(list.json()).toHaveLength(1);
    const id = list.json()[0].id as number;
    const user = await t.app.inject({ method: 'POST', url: '/api/v1/user', headers: { cookie: t.admin }, payload: userBody('bob') });
    expect(user.statusCode).toBe(201);
    const bobLogin = await t.app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'bob', password: USER_PASSWORD } });
    const bob = String(bobLogin.headers['set-cookie']).split(';')[0] ?? '';
    expect((await req('GET', '/api/v1/vpn_session', bob)).json()).toEqual([]);
    expect((await req('DELETE', `/api/v1/vpn_session/${id}`, bob)).json().code).toBe('vpn_session.not_found');

    const mark = late.received.length;
    expect((await req('DELETE', `/api/v1/vpn_session/${id}`, t.admin)).statusCode).toBe(204);
    await peerRemove(late, key, mark);
    expect((await req('GET', '/api/v1/vpn_session', t.admin)).json()[0]).toMatchObject({ id, end_reason: 'disconnected' });
    expect((await req('DELETE', `/api/v1/vpn_session/${id}`, t.admin)).statusCode).toBe(204);

    const events = await queryRows<{ type: string }>(db.db, sql`select type from events where type like 'vpn_session.%' order by id`);
    expect(events.map((e) => e.type)).toEqual(['vpn_session.started', 'vpn_session.ended']);
  }, 60_000);
  it("ends the user's sessions when their MFA is turned off or reset by an admin, and their peers leave the gateway", async () => {
    const { mfa, key } = await setup();
    await t.app.inject({ method: 'POST', url: '/api/v1/user', headers: { cookie: t.admin }, payload: userBody('dave') });
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'dave', password: USER_PASSWORD } });
    const dave = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const daveKey = newKey();
    expect((await req('POST', '/api/v1/device/dave', dave, { name: 'phone', wireguard_pubkey: daveKey })).statusCode).toBe(201);
    const connect = async (cookie: string, pubkey: string) => {
      const secret = await enableTotp(cookie);
      const c = await req('POST', '/api/v1/vpn_session/start', cookie, { location_id: mfa.id, device_pubkey: pubkey });
      const done = await req('POST', '/api/v1/vpn_session/finish', cookie, { challenge: c.json().challenge, code: code(secret, 0) });
      expect(done.statusCode).toBe(201);
      return done.json().session.id as number;
    };
    const adminSession = await connect(t.admin, key);
    const daveSession = await connect(dave, daveKey);
    const g = await gatewayOf(mfa.id);
    expect((await g.waitFor('snapshot', snapshotOf)).peers.map((p) => p.publicKey).sort()).toEqual([key, daveKey].sort());
    const endReason = async (id: number) =>
      (await queryRows<{ end_reason: string | null }>(db.db, sql`select end_reason from vpn_sessions where id = ${id}`))[0]?.end_reason;

    // An admin resets dave's MFA: his session ends, the admin's stays.
    let mark = g.received.length;
    expect((await req('DELETE', '/api/v1/user/dave/mfa', t.admin)).statusCode).toBe(204);
    await peerRemove(g, daveKey, mark);
    expect(await endReason(daveSession)).toBe('mfa_reset');
    expect(await endReason(adminSession)).toBeNull();

    // The admin turns their own MFA off with the password: their session ends too.
    mark = g.received.length;
    expect((await req('DELETE', '/api/v1/auth/mfa', t.admin, { password: ADMIN_PASSWORD })).statusCode).toBe(204);
    await peerRemove(g, key, mark);
    expect((await req('GET', '/api/v1/vpn_session', t.admin)).json()[0]).toMatchObject({ id: adminSession, end_reason: 'mfa_reset' });

    const ended = await queryRows<{ type: string; reason: string; session_id: number }>(
      db.db,
      sql`select type, details->>'reason' as reason, (details->>'session_id')::int as session_id from events where type = 'vpn_session.ended' order by id`,
    );
    expect(ended).toEqual([
      { type: 'vpn_session.ended', reason: 'mfa_reset', session_id: daveSession },
      { type: 'vpn_session.ended', reason: 'mfa_reset', session_id: adminSession },
    ]);
  }, 60_000);
  it('keeps a session whose device sends between handshakes (growing rx counters), and ends it once they stop', async () => {
    const { mfa, key, deviceId } = await setup();
    const secret = await enableTotp(t.admin);
    const c = await req('POST', '/api/v1/vpn_session/start', t.admin, { location_id: mfa.id, device_pubkey: key });
    const done = await req('POST', '/api/v1/vpn_session/finish', t.admin, { challenge: c.json().challenge, code: code(secret, 0) });
    expect(done.statusCode).toBe(201);
    const id = done.json().session.id as number;
    await db.db.execute(sql`update locations set peer_disconnect_threshold = 60 where id = ${mfa.id}`);
    await db.db.execute(sql`update vpn_sessions set started_at = now() - interval '10 minutes' where id = ${id}`);
    // Reports as a gateway sends them: cumulative counters, the handshake 200 s old (WireGuard renews it every ~120 s in use).
    const report = (gatewayId: number, agoS: number, upload: number, download: number) =>
      db.db.execute(sql`insert into peer_stats (location_id, device_id, gateway_id, collected_at, upload, download, latest_handshake)
        values (${mfa.id}, ${deviceId}, ${gatewayId}, now() - make_interval(secs => ${agoS}), ${upload}, ${download}, now() - interval '200 seconds')`);
    await report(1, 100, 1000, 1000);
    await report(1, 30, 5000, 9000);
    expect(await expireVpnSessions(db.db)).toBe(0);

    // The device stopped sending: the gateway's own counter (tx, handshake attempts) grows, its rx does not.
    // Another gateway's lower counters between two reports are not growth.
    await db.db.execute(sql`delete from peer_stats where device_id = ${deviceId}`);
    await report(1, 100, 5000, 9000);
    await report(2, 50, 10, 10);
    await report(1, 30, 5000, 9500);
    expect(await expireVpnSessions(db.db)).toBe(1);
    expect((await req('GET', '/api/v1/vpn_session', t.admin)).json()[0]).toMatchObject({ id, end_reason: 'inactive' });
  }, 60_000);
  it('ends a session after the threshold without a handshake, and when the user is disabled', async () => {
    const { mfa, key, deviceId } = await setup();
    await t.app.inject({ method: 'POST', url: '/api/v1/user', headers: { cookie: t.admin }, payload: userBody('carol') });
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'carol', password: USER_PASSWORD } });
    const carol = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const carolKey = newKey();
    expect((await req('POST', '/api/v1/device/carol', carol, { name: 'phone', wireguard_pubkey: carolKey })).statusCode).toBe(201);
    const connect = async (cookie: string, pubkey: string) => {
      const secret = await enableTotp(cookie);
      const c = await req('POST', '/api/v1/vpn_session/start', cookie, { location_id: mfa.id, device_pubkey: pubkey });
      const done = await req('POST', '/api/v1/vpn_session/finish', cookie, { challenge: c.json().challenge, code: code(secret, 0) });
      expect(done.statusCode).toBe(201);
      return done.json().session.id as number;
    };
    const adminSession = await connect(t.admin, key);
    const carolSession = await connect(carol, carolKey);
    const g = await gatewayOf(mfa.id);
    const snap = await g.waitFor('snapshot', snapshotOf);
    expect(snap.peers.map((p) => p.publicKey).sort()).toEqual([key, carolKey].sort());

    // A recent handshake keeps the admin's session; none for the threshold ends it.
    expect(await expireVpnSessions(db.db)).toBe(0);
    await db.db.execute(sql`update vpn_sessions set started_at = now() - interval '10 minutes' where id = ${adminSession}`);
    await db.db.execute(sql`insert into peer_stats (location_id, device_id, gateway_id, collected_at, upload, download, latest_handshake)
      select ${mfa.id}, ${deviceId}, id, now(), 0, 0, now() - interval '1 minute' from gateways limit 1`);
    expect(await expireVpnSessions(db.db)).toBe(0);
    const mark = g.received.length;
    await db.db.execute(sql`update peer_stats set latest_handshake = now() - interval '6 minutes'`);
    await db.db.execute(sql`update vpn_sessions set last_handshake = null where id = ${adminSession}`);
    expect(await expireVpnSessions(db.db)).toBe(1);
    await peerRemove(g, key, mark);
    expect((await req('GET', '/api/v1/vpn_session', t.admin)).json()[0]).toMatchObject({ id: adminSession, end_reason: 'inactive' });

    // Disabling carol ends her session and removes her peer.
    const user = (await req('GET', '/api/v1/user/carol', t.admin)).json();
    const next = g.received.length;
    const off = await req('PUT', '/api/v1/user/carol', t.admin, {
      username: 'carol',
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      is_active: false,
      groups: user.groups,
    });
    expect(off.statusCode).toBe(200);
    await peerRemove(g, carolKey, next);
    const [row] = await queryRows<{ end_reason: string }>(db.db, sql`select end_reason from vpn_sessions where id = ${carolSession}`);
    expect(row?.end_reason).toBe('user_disabled');
  }, 60_000);
});
