import { Code } from '@connectrpc/connect';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { type EventRow, eventsAfter, lastEventId } from '#test/event-rows.js';
import { connectGateway, createGrpcApp, type GrpcTestApp, snapshotOf, type TestGateway } from '#test/gateway-support.js';
import { ensureWorkerDatabase } from '#test/helpers.js';
import { createLocation } from '#test/network-fixtures.js';
import { ControlRepo } from './control.repo.js';

/**
 * Gateway streams record `gateway.connected` and `gateway.disconnected` with the gateway as the
 * actor (its name and the stream's peer address): one pair per stream, however often it reconnects.
 */
let t: GrpcTestApp;
let database: DatabaseHandle;
const open: TestGateway[] = [];

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: await ensureWorkerDatabase(), dataDir: '/nonexistent', poolSize: 2 });
  t = await createGrpcApp({ reset: false });
});
afterAll(async () => {
  for (const g of open) g.close();
  await t.close();
  await database.close();
});
beforeEach(async () => {
  for (const g of open.splice(0)) g.close();
  await t.close();
  t = await createGrpcApp();
});

const req = (method: 'GET' | 'POST' | 'DELETE', url: string) => t.app.inject({ method, url, headers: { cookie: t.admin } });

function gateway(token: string, hello: Parameters<typeof connectGateway>[2] = {}): TestGateway {
  const g = connectGateway(t.port, token, hello);
  open.push(g);
  return g;
}

async function setUp(): Promise<{ location: { id: number; name: string }; token: string; mark: number }> {
  const location = await createLocation(t.app, t.admin);
  const token = (await req('GET', `/api/v1/network/${location.id}/token`)).json().token as string;
  return { location, token, mark: await lastEventId(database.db) };
}

const gatewayEvents = (rows: EventRow[]) => rows.filter((r) => r.module === 'gateways');

/** Polls the events after `mark` until `done` holds for them. */
async function eventsUntil(mark: number, done: (rows: EventRow[]) => boolean, ms = 20_000): Promise<EventRow[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows = await eventsAfter(database.db, mark);
    if (done(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`timed out; events so far: ${JSON.stringify(rows.map((r) => r.type))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('gateway events', () => {
  it('a stream records connected, then disconnected when it ends, with the gateway as actor and its peer address', async () => {
    const { location, token, mark } = await setUp();
    const g = gateway(token);
    await g.waitFor('snapshot', snapshotOf);
    const [connected] = await eventsUntil(mark, (rows) => rows.length >= 1);
    const gatewayRowId = connected?.object_id;
    const expected = {
      actor_type: 'gateway',
      username: 'gateway one',
      user_id: null,
      ip: '127.0.0.1',
      module: 'gateways',
      object_type: 'gateway',
      object_name: 'gateway one',
      details: { location_id: location.id, location_name: location.name, gateway_id: 'gw-1', hostname: 'gw1.example', version: '0.1.0' },
    };
    expect(connected).toMatchObject({ ...expected, type: 'gateway.connected' });
    expect(Number(gatewayRowId)).toBeGreaterThan(0);

    g.close();
    const rows = await eventsUntil(mark, (r) => r.length >= 2);
    expect(rows.map((r) => r.type)).toEqual(['gateway.connected', 'gateway.disconnected']);
    expect(rows[1]).toMatchObject({ ...expected, type: 'gateway.disconnected', object_id: gatewayRowId });
  });

  it('reconnecting and being replaced by a newer stream: one connected/disconnected pair per stream, in order', async () => {
    const { token, mark } = await setUp();
    for (let i = 0; i < 3; i++) {
      const g = gateway(token);
      await g.waitFor('snapshot', snapshotOf);
      g.close();
      await eventsUntil(mark, (rows) => rows.filter((r) => r.type === 'gateway.disconnected').length === i + 1);
    }
    const first = gateway(token);
    await first.waitFor('snapshot', snapshotOf);
    const second = gateway(token);
    await second.waitFor('snapshot', snapshotOf);
    expect((await first.waitEnded())?.code).toBe(Code.Aborted);
    second.close();
    const rows = await eventsUntil(mark, (r) => r.filter((e) => e.type === 'gateway.disconnected').length === 5);
    expect(gatewayEvents(rows).map((r) => r.type)).toEqual(
      Array.from({ length: 5 }, () => ['gateway.connected', 'gateway.disconnected']).flat(),
    );
  });

  it('a stream that never recorded its end (its process died) is closed in the log by the next one', async () => {
    const { location, token, mark } = await setUp();
    // A stream of a replica that died: the row still names it.
    await new ControlRepo(database.db).connectGateway(
      location.id,
      { gatewayId: 'gw-1', name: 'gateway one', hostname: 'gw1.example', version: '0.1.0', interfaceName: 'wg0', implementation: 'kernel' },
      'dead-stream',
      '10.0.0.99',
    );
    const g = gateway(token);
    await g.waitFor('snapshot', snapshotOf);
    const rows = await eventsUntil(mark, (r) => r.length >= 3);
    expect(rows.map((r) => [r.type, r.ip, r.details.reason])).toEqual([
      ['gateway.connected', '10.0.0.99', undefined],
      ['gateway.disconnected', null, 'superseded'],
      ['gateway.connected', '127.0.0.1', undefined],
    ]);
  });

  it('a rotated token ends the stream (disconnected, with the reason); deleting the gateway records the admin', async () => {
    const { location, token, mark } = await setUp();
    const g = gateway(token);
    await g.waitFor('snapshot', snapshotOf);
    expect((await req('POST', `/api/v1/network/${location.id}/token`)).statusCode).toBe(200);
    await g.waitEnded();
    const rows = await eventsUntil(mark, (r) => r.some((e) => e.type === 'gateway.disconnected'));
    expect(rows.map((r) => r.type)).toEqual(['gateway.connected', 'location.token_rotated', 'gateway.disconnected']);
    expect(rows[2]?.details.reason).toBe('gateway token revoked');
    const gatewayId = Number(rows[0]?.object_id);

    const afterRotation = await lastEventId(database.db);
    expect((await req('DELETE', `/api/v1/network/${location.id}/gateways/${gatewayId}`)).statusCode).toBe(204);
    expect(await eventsAfter(database.db, afterRotation)).toEqual([
      expect.objectContaining({
        actor_type: 'user',
        username: 'admin',
        type: 'gateway.deleted',
        module: 'gateways',
        object_type: 'gateway',
        object_id: String(gatewayId),
        object_name: 'gateway one',
        details: { location_id: location.id, location_name: location.name, gateway_id: 'gw-1', hostname: 'gw1.example' },
      }),
    ]);
    const afterDelete = await lastEventId(database.db);
    expect((await req('DELETE', `/api/v1/network/${location.id}/gateways/${gatewayId}`)).statusCode).toBe(404);
    expect((await req('DELETE', `/api/v1/network/999999/gateways/${gatewayId}`)).statusCode).toBe(404);
    expect(await eventsAfter(database.db, afterDelete)).toEqual([]);
  });

  it('deleting a connected gateway, or its location, records the end of its stream with the deletion, and nothing after', async () => {
    const { location, token, mark } = await setUp();
    const g = gateway(token);
    await g.waitFor('snapshot', snapshotOf);
    const [connected] = await eventsUntil(mark, (r) => r.length >= 1);
    expect((await req('DELETE', `/api/v1/network/${location.id}/gateways/${connected?.object_id}`)).statusCode).toBe(204);
    await g.waitEnded();
    const h = gateway(token, { gatewayId: 'gw-2', gatewayName: 'gateway two' });
    await h.waitFor('snapshot', snapshotOf);
    expect((await req('DELETE', `/api/v1/network/${location.id}`)).statusCode).toBe(204);
    await h.waitEnded();
    const rows = await eventsUntil(mark, (r) => r.some((e) => e.type === 'location.deleted'));
    // The streams' own ends find their rows gone: nothing more is recorded. Closing the app waits
    // for every stream's end on the server side.
    const closing = t;
    t = await createGrpcApp({ reset: false });
    await closing.close();
    const mine = (list: EventRow[]) => list.filter((r) => r.module !== 'auth'); // the new app signs in
    expect(mine(await eventsAfter(database.db, mark))).toEqual(rows);
    expect(rows.map((r) => [r.type, r.actor_type, r.object_name, r.details.reason])).toEqual([
      ['gateway.connected', 'gateway', 'gateway one', undefined],
      ['gateway.disconnected', 'gateway', 'gateway one', 'gateway deleted'],
      ['gateway.deleted', 'user', 'gateway one', undefined],
      ['gateway.connected', 'gateway', 'gateway two', undefined],
      ['gateway.disconnected', 'gateway', 'gateway two', 'location deleted'],
      ['location.deleted', 'user', location.name, undefined],
    ]);
  });
});
