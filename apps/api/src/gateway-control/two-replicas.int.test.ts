import { afterAll, expect, it } from 'vitest';
import { connectGateway, createGrpcApp, expectDeviceDelta, type GrpcTestApp, snapshotOf, type TestGateway } from '#test/gateway-support.js';
import { createLocation } from '#test/network-fixtures.js';

/**
 * Two API instances (two buildApp, each with its own pool, LISTEN connection and gRPC port) on one
 * PostgreSQL database: a change made through A reaches a gateway connected to B (LISTEN/NOTIFY),
 * and a token rotated through A cuts off B's stream.
 */
const apps: GrpcTestApp[] = [];
const gateways: TestGateway[] = [];

afterAll(async () => {
  for (const g of gateways) g.close();
  for (const a of apps) await a.close();
});

it('a device created through instance A reaches a gateway connected to instance B', async () => {
  const a = await createGrpcApp();
  apps.push(a);
  const b = await createGrpcApp({ reset: false });
  apps.push(b);
  expect(a.port).not.toBe(b.port);
  const location = await createLocation(a.app, a.admin);
  const token = (await a.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/token`, headers: { cookie: a.admin } })).json()
    .token;

  const g = connectGateway(b.port, token);
  gateways.push(g);
  const snapshot = await g.waitFor('snapshot from B', snapshotOf);

  await expectDeviceDelta(a, g, snapshot);

  const listed = await b.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/gateways`, headers: { cookie: b.admin } });
  expect(listed.json()[0]).toMatchObject({ connected: true, gateway_id: 'gw-1' });

  await a.app.inject({ method: 'POST', url: `/api/v1/network/${location.id}/token`, headers: { cookie: a.admin } });
  expect((await g.waitEnded())?.code).toBe(16);
}, 60_000);
