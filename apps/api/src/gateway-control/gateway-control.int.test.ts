import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code } from '@connectrpc/connect';
import { ControlErrorCode, WireGuardImplementation } from '@palisade/proto';
import { publicKeyFromPrivate } from '@palisade/wireguard';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectGateway,
  createGrpcApp,
  deltaOf,
  errorOf,
  type GrpcTestApp,
  snapshotOf,
  type TestGateway,
  waitFor,
} from '#test/gateway-support.js';
import { userBody } from '#test/helpers.js';
import { createLocation, newKey } from '#test/network-fixtures.js';

/**
 * The gRPC control plane end to end: real HTTP/2 server (port 0), real connect-node clients, real
 * PostgreSQL; changes made through the REST API reach connected gateways as deltas.
 */
let t: GrpcTestApp;
const open: TestGateway[] = [];

beforeAll(async () => {
  t = await createGrpcApp({ reset: false });
});
afterAll(async () => {
  for (const g of open) g.close();
  await t.close();
});
beforeEach(async () => {
  for (const g of open.splice(0)) g.close();
  await t.close();
  t = await createGrpcApp();
});

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie: t.admin }, ...(payload === undefined ? {} : { payload: payload as string }) });

async function tokenOf(locationId: number): Promise<string> {
  const res = await req('GET', `/api/v1/network/${locationId}/token`);
  expect(res.statusCode).toBe(200);
  return res.json().token;
}

function gateway(token: string | undefined, hello: Parameters<typeof connectGateway>[2] = {}): TestGateway {
  const g = connectGateway(t.port, token, hello);
  open.push(g);
  return g;
}

async function addUserDevice(username: string, key = newKey()): Promise<{ id: number; key: string }> {
  const res = await req('POST', `/api/v1/device/${username}`, { name: `d-${key.slice(0, 6)}`, wireguard_pubkey: key });
  expect(res.statusCode).toBe(201);
  return { id: res.json().device.id, key };
}

const peerKeys = (g: TestGateway) =>
  g.received
    .map(snapshotOf)
    .filter((s) => s !== undefined)
    .at(-1)
    ?.peers.map((p) => p.publicKey)
    .sort();

describe('gateway authentication', () => {
  it('refuses a missing or wrong token with UNAUTHENTICATED', async () => {
    await createLocation(t.app, t.admin);
    expect((await gateway(undefined).waitEnded())?.code).toBe(Code.Unauthenticated);
    expect((await gateway('not-a-token').waitEnded())?.code).toBe(Code.Unauthenticated);
  });

  it('ends a stream whose first message is not a Hello', async () => {
    const location = await createLocation(t.app, t.admin);
    const g = gateway(await tokenOf(location.id), null);
    g.send({ kind: { case: 'ack', value: { revision: 1n, revisionEpoch: 'x' } } });
    expect((await g.waitEnded())?.code).toBe(Code.InvalidArgument);
    expect(g.received.map(errorOf)[0]?.code).toBe(ControlErrorCode.PROTOCOL_VIOLATION);
  });

  it('GET token returns the same token until rotated; rotation cuts off streams holding the old one', async () => {
    const location = await createLocation(t.app, t.admin);
    const token = await tokenOf(location.id);
    expect(await tokenOf(location.id)).toBe(token);
    expect((await req('GET', `/api/v1/network/${location.id}/token`)).json().grpc_url).toMatch(/^http:\/\/.+:50055$/);
    const g = gateway(token);
    await g.waitFor('snapshot', snapshotOf);
    const rotated = await req('POST', `/api/v1/network/${location.id}/token`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().token).not.toBe(token);
    expect((await g.waitEnded())?.code).toBe(Code.Unauthenticated);
    expect(g.received.map(errorOf).find(Boolean)?.code).toBe(ControlErrorCode.TOKEN_REVOKED);
    expect((await gateway(token).waitEnded())?.code).toBe(Code.Unauthenticated);
    await gateway(rotated.json().token).waitFor('snapshot with the new token', snapshotOf);
  });
});

describe('snapshot and deltas', () => {
  it('sends a snapshot equal to the configured devices and interface', async () => {
    const location = await createLocation(t.app, t.admin, { port: 51999, keepalive_interval: 21 });
    await t.app.inject({ method: 'POST', url: '/api/v1/user', headers: { cookie: t.admin }, payload: userBody('alice') });
    const a = await addUserDevice('alice');
    const b = await addUserDevice('admin');
    const net = await req('POST', '/api/v1/device/network', { name: 'router', location_id: location.id, wireguard_pubkey: newKey() });
    expect(net.statusCode).toBe(201);
    const g = gateway(await tokenOf(location.id));
    const snapshot = await g.waitFor('snapshot', snapshotOf);
    expect(snapshot.peers.map((p) => p.publicKey).sort()).toEqual([a.key, b.key, net.json().device.wireguard_pubkey].sort());
    expect(snapshot.peers.every((p) => p.allowedIps.length === 1 && p.allowedIps[0]?.endsWith('/32') && p.persistentKeepalive === 21)).toBe(
      true,
    );
    expect(snapshot.interface?.listenPort).toBe(51999);
    expect(snapshot.interface?.addresses).toEqual(location.address);
    expect(publicKeyFromPrivate(snapshot.interface?.privateKey ?? '')).toBe(location.pubkey);
  });

  it('sends deltas for device create, key change and delete, and stores acks', async () => {
    const location = await createLocation(t.app, t.admin);
    const g = gateway(await tokenOf(location.id));
    const snapshot = await g.waitFor('snapshot', snapshotOf);
    g.ack(snapshot.revisionEpoch, snapshot.revision);

    const device = await addUserDevice('admin');
    const created = await g.waitFor('upsert delta', (m) => {
      const op = deltaOf(m)?.ops[0]?.op;
      return op?.case === 'peerUpsert' && op.value.peer?.publicKey === device.key ? deltaOf(m) : undefined;
    });
    expect(created.revision).toBe(snapshot.revision + 1n);

    const newKeyValue = newKey();
    const put = await req('PUT', `/api/v1/device/${device.id}`, { name: 'renamed', wireguard_pubkey: newKeyValue });
    expect(put.statusCode).toBe(200);
    const rotated = await g.waitFor('key rotation delta', (m) => (deltaOf(m)?.revision === created.revision + 1n ? deltaOf(m) : undefined));
    expect(rotated.ops.map((o) => o.op.case)).toEqual(['peerRemove', 'peerUpsert']);

    expect((await req('DELETE', `/api/v1/device/${device.id}`)).statusCode).toBeLessThan(300);
    const removed = await g.waitFor('remove delta', (m) => (deltaOf(m)?.revision === rotated.revision + 1n ? deltaOf(m) : undefined));
    expect(removed.ops).toHaveLength(1);
    expect(removed.ops[0]?.op).toMatchObject({ case: 'peerRemove', value: { publicKey: newKeyValue } });

    g.ack(snapshot.revisionEpoch, removed.revision);
    g.ack(snapshot.revisionEpoch, removed.revision); // duplicate: harmless
    g.ack(snapshot.revisionEpoch, created.revision); // older: ignored
    const acked = await waitForAsync(async () => {
      const [row] = (await req('GET', `/api/v1/network/${location.id}/gateways`)).json();
      return row?.acknowledged_revision === Number(removed.revision) ? row : undefined;
    });
    expect(acked.location_revision).toBe(Number(removed.revision));
  }, 60_000);

  it('removes peers when a user leaves the allowed group or is disabled', async () => {
    const group = await req('POST', '/api/v1/group', { name: 'staff' });
    expect(group.statusCode).toBe(201);
    const location = await createLocation(t.app, t.admin, { allowed_groups: ['staff'] });
    const user = await t.app.inject({ method: 'POST', url: '/api/v1/user', headers: { cookie: t.admin }, payload: userBody('bob') });
    expect(user.statusCode).toBe(201);
    expect((await req('POST', '/api/v1/group/staff', { username: 'bob' })).statusCode).toBeLessThan(300);
    const device = await addUserDevice('bob');
    const g = gateway(await tokenOf(location.id));
    await g.waitFor('snapshot', snapshotOf);
    expect(peerKeys(g)).toEqual([device.key]);

    expect((await req('DELETE', '/api/v1/group/staff/user/bob')).statusCode).toBeLessThan(300);
    await g.waitFor('removal on group leave', (m) =>
      deltaOf(m)?.ops.some((o) => o.op.case === 'peerRemove' && o.op.value.publicKey === device.key) ? true : undefined,
    );
    const back = g.received.length;
    expect((await req('POST', '/api/v1/group/staff', { username: 'bob' })).statusCode).toBeLessThan(300);
    await g.waitFor('upsert on group join', (m) =>
      g.received.indexOf(m) >= back && deltaOf(m)?.ops.some((o) => o.op.case === 'peerUpsert') ? true : undefined,
    );

    const bob = (await req('GET', '/api/v1/user/bob')).json();
    const mark = g.received.length;
    const disabled = await req('PUT', '/api/v1/user/bob', {
      username: 'bob',
      first_name: bob.first_name,
      last_name: bob.last_name,
      email: bob.email,
      is_active: false,
      groups: bob.groups,
    });
    expect(disabled.statusCode).toBe(200);
    await g.waitFor('removal on disable', (m) =>
      g.received.indexOf(m) >= mark && deltaOf(m)?.ops.some((o) => o.op.case === 'peerRemove' && o.op.value.publicKey === device.key)
        ? true
        : undefined,
    );
  }, 60_000);

  it('sends an InterfaceChange when the location port changes', async () => {
    const location = await createLocation(t.app, t.admin);
    const g = gateway(await tokenOf(location.id));
    await g.waitFor('snapshot', snapshotOf);
    const network = (await req('GET', `/api/v1/network/${location.id}`)).json();
    const { id: _id, pubkey: _p, created_at: _c, ...body } = network;
    expect((await req('PUT', `/api/v1/network/${location.id}`, { ...body, port: 51000 })).statusCode).toBe(200);
    const change = await g.waitFor('interface change', (m) => {
      const op = deltaOf(m)?.ops.find((o) => o.op.case === 'interfaceChange')?.op;
      return op?.case === 'interfaceChange' ? op.value.interface : undefined;
    });
    expect(change?.listenPort).toBe(51000);
  });
});

describe('reconnects', () => {
  it('resumes with deltas from the log, sends nothing when current, and a snapshot for another epoch', async () => {
    const location = await createLocation(t.app, t.admin);
    const token = await tokenOf(location.id);
    const first = gateway(token);
    const snapshot = await first.waitFor('snapshot', snapshotOf);
    first.close();
    const d1 = await addUserDevice('admin');
    const d2 = await addUserDevice('admin');

    const behind = gateway(token, { appliedRevisionEpoch: snapshot.revisionEpoch, appliedRevision: snapshot.revision });
    const deltas = await waitFor('two deltas', () => (behind.received.length >= 2 ? behind.received : undefined));
    expect(deltas.map((m) => m.kind.case)).toEqual(['delta', 'delta']);
    expect(deltas.map((m) => deltaOf(m)?.revision)).toEqual([snapshot.revision + 1n, snapshot.revision + 2n]);
    behind.close();

    const current = gateway(token, {
      gatewayId: 'gw-2',
      appliedRevisionEpoch: snapshot.revisionEpoch,
      appliedRevision: snapshot.revision + 2n,
    });
    // Created while that stream may still be opening, deliberately: whichever comes first, a
    // gateway that is current gets exactly the next delta (session.test.ts pins each interleaving).
    const d3 = await addUserDevice('admin');
    const only = await current.waitFor('the next delta', deltaOf);
    expect(current.received[0]?.kind.case).toBe('delta');
    expect(only.ops[0]?.op).toMatchObject({ case: 'peerUpsert', value: { peer: { publicKey: d3.key } } });

    const stale = gateway(token, { gatewayId: 'gw-3', appliedRevisionEpoch: 'other-epoch', appliedRevision: 99n });
    const again = await stale.waitFor('snapshot', snapshotOf);
    expect(again.peers.map((p) => p.publicKey).sort()).toEqual([d1.key, d2.key, d3.key].sort());

    stale.send({ kind: { case: 'snapshotRequest', value: { reason: 1, appliedRevision: 0n, receivedRevision: 5n } } });
    await waitFor('a snapshot on request', () => stale.received.filter((m) => m.kind.case === 'snapshot').length >= 2);
  }, 60_000);

  it('a newer stream of the same gateway replaces the older one', async () => {
    const location = await createLocation(t.app, t.admin);
    const token = await tokenOf(location.id);
    const older = gateway(token);
    await older.waitFor('snapshot', snapshotOf);
    const newer = gateway(token);
    await newer.waitFor('snapshot', snapshotOf);
    expect((await older.waitEnded())?.code).toBe(Code.Aborted);
    expect(older.received.map(errorOf).find(Boolean)?.code).toBe(ControlErrorCode.REPLACED);
    expect(newer.ended).toBe(false);
  });
});

describe('status routes', () => {
  it('lists gateways with their acknowledged revision, summarises locations, and deletes (disconnecting) a gateway', async () => {
    const location = await createLocation(t.app, t.admin);
    const other = await createLocation(t.app, t.admin, { address: ['10.30.0.1/24'] });
    const token = await tokenOf(location.id);
    const g1 = gateway(token, { gatewayId: 'a', gatewayName: 'alpha' });
    const s = await g1.waitFor('snapshot', snapshotOf);
    g1.ack(s.revisionEpoch, s.revision);
    // beta's hello comes before it has an interface; its status after applying says what drives it.
    const g2 = gateway(token, { gatewayId: 'b', gatewayName: 'beta', wireguardImplementation: WireGuardImplementation.UNSPECIFIED });
    const s2 = await g2.waitFor('snapshot', snapshotOf);
    g2.send({
      kind: {
        case: 'status',
        value: {
          state: 1,
          appliedRevision: s2.revision,
          message: '',
          peerCount: 0,
          wireguardImplementation: WireGuardImplementation.KERNEL,
        },
      },
    });
    const list = async () => (await req('GET', `/api/v1/network/${location.id}/gateways`)).json() as Record<string, unknown>[];
    const rows = await waitForAsync(async () => {
      const r = await list();
      return r.length === 2 &&
        r.find((x) => x.name === 'alpha')?.acknowledged_revision === Number(s.revision) &&
        r.find((x) => x.name === 'beta')?.wireguard_implementation === 'kernel'
        ? r
        : undefined;
    });
    expect(rows.find((x) => x.name === 'alpha')).toMatchObject({
      connected: true,
      hostname: 'gw1.example',
      version: '0.1.0',
      gateway_id: 'a',
      location_revision: Number(s.revision),
      wireguard_implementation: 'userspace',
    });
    expect(typeof rows[0]?.connected_at).toBe('string');

    const all = (await req('GET', '/api/v1/network/gateways')).json() as { location_id: number; status: string }[];
    expect(all.find((l) => l.location_id === location.id)?.status).toBe('all_connected');
    expect(all.find((l) => l.location_id === other.id)?.status).toBe('none_connected');

    g2.close();
    await waitForAsync(async () => ((await list()).find((x) => x.name === 'beta')?.connected === false ? true : undefined));
    const some = (await req('GET', '/api/v1/network/gateways')).json() as { location_id: number; status: string }[];
    expect(some.find((l) => l.location_id === location.id)?.status).toBe('some_connected');

    const alpha = (await list()).find((x) => x.name === 'alpha');
    expect((await req('DELETE', `/api/v1/network/${location.id}/gateways/${alpha?.id}`)).statusCode).toBe(204);
    expect(await g1.waitEnded()).toBeDefined();
    expect((await list()).map((x) => x.name)).toEqual(['beta']);
    const missing = await req('DELETE', `/api/v1/network/${location.id}/gateways/999999`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('gateway.not_found');
    expect((await req('GET', '/api/v1/network/999999/gateways')).json().code).toBe('network.not_found');
  }, 60_000);
});

describe('stats', () => {
  it('ingests stats reports and serves the three stats routes with per-interval deltas', async () => {
    const location = await createLocation(t.app, t.admin);
    await t.app.inject({ method: 'POST', url: '/api/v1/user', headers: { cookie: t.admin }, payload: userBody('carol') });
    const dev = await addUserDevice('carol');
    const net = await req('POST', '/api/v1/device/network', { name: 'rtr', location_id: location.id, wireguard_pubkey: newKey() });
    const netKey = net.json().device.wireguard_pubkey as string;
    const g = gateway(await tokenOf(location.id));
    await g.waitFor('snapshot', snapshotOf);
    const now = Date.now();
    const report = (ms: number, rx: number, tx: number, handshake: number) =>
      g.send({
        kind: {
          case: 'statsReport',
          value: {
            collectedAt: timestampFromMs(ms),
            peers: [
              {
                publicKey: dev.key,
                rxBytes: BigInt(rx),
                txBytes: BigInt(tx),
                endpoint: '203.0.113.7:5555',
                latestHandshake: timestampFromMs(handshake),
              },
              {
                publicKey: netKey,
                rxBytes: BigInt(rx * 2),
                txBytes: BigInt(tx * 2),
                endpoint: '',
                latestHandshake: timestampFromMs(handshake),
              },
              { publicKey: newKey(), rxBytes: 1n, txBytes: 1n, endpoint: '' },
            ],
          },
        },
      });
    report(now - 20 * 60_000, 1000, 5000, now - 20 * 60_000);
    report(now - 10 * 60_000, 3000, 9000, now - 10 * 60_000);
    report(now - 60_000, 500, 100, now - 60_000); // counter reset: counts 500 / 100
    await waitForAsync(async () => {
      await t.app.gatewayControl?.stats.flush();
      return (await req('GET', `/api/v1/network/${location.id}/stats`)).json().upload === 3 * (2000 + 500) ? true : undefined;
    });
    const stats = (await req('GET', `/api/v1/network/${location.id}/stats`)).json();
    expect(stats).toMatchObject({
      upload: 7500,
      download: 3 * (4000 + 100),
      active_users: 1,
      active_user_devices: 1,
      active_network_devices: 1,
      current_active_users: 1,
      current_active_user_devices: 1,
      current_active_network_devices: 1,
      bucket_seconds: 60,
    });
    expect(stats.peak_upload).toBe(6000);
    expect(stats.transfer_series.length).toBeGreaterThanOrEqual(2);

    const all = (await req('GET', '/api/v1/network/stats')).json();
    expect(all.upload).toBe(7500);
    const recent = (await req('GET', `/api/v1/network/${location.id}/stats`, undefined)).json();
    expect(recent.upload).toBe(7500);
    const since = new Date(now - 5 * 60_000).toISOString();
    const windowed = (
      await t.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/stats?from=${since}`, headers: { cookie: t.admin } })
    ).json();
    expect(windowed.upload).toBe(1500);

    const users = (await req('GET', `/api/v1/network/${location.id}/stats/users`)).json();
    expect(users.users).toHaveLength(1);
    expect(users.users[0]).toMatchObject({ user: { username: 'carol' }, upload: 2500, download: 4100 });
    expect(users.users[0].devices[0]).toMatchObject({ id: dev.id, connected: true, public_ip: '203.0.113.7', upload: 2500 });
    expect(users.network_devices).toHaveLength(1);
    expect(users.network_devices[0].upload).toBe(5000);

    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/network/${location.id}/stats?from=yesterday`,
      headers: { cookie: t.admin },
    });
    expect(bad.statusCode).toBe(400);
    expect((await req('GET', '/api/v1/network/999999/stats')).statusCode).toBe(404);
  }, 60_000);
});

async function waitForAsync<T>(check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
