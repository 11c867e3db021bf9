import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGateway, createGrpcApp, deltaOf, type GrpcTestApp, snapshotOf, type TestGateway } from '#test/gateway-support.js';
import { createLocation, newKey } from '#test/network-fixtures.js';
import { parseExposition } from './exposition.js';

const TOKEN = 'gateway-metrics-token-0123456789';

/** The API's per-location gateway series follow real gRPC streams: connected count and applied-revision lag. */
describe('gateway series of GET /metrics', () => {
  let t: GrpcTestApp;
  const open: TestGateway[] = [];

  beforeAll(async () => {
    t = await createGrpcApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    for (const g of open) g.close();
    await t.close();
  });

  const series = async (name: string, locationId: number) => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return parseExposition(res.body).find((s) => s.name === name && s.labels.location_id === String(locationId))?.value;
  };
  /** Polls the scrape until `name` for the location equals `want` (undefined: the series is absent). */
  const until = async (name: string, locationId: number, want: number | undefined) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const got = await series(name, locationId);
      if (got === want) return;
      if (Date.now() > deadline) throw new Error(`${name}{location_id="${locationId}"} is ${got}, expected ${want}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  it('counts connected gateways per location id and the revisions they have not acknowledged', async () => {
    const location = await createLocation(t.app, t.admin);
    const tokenRes = await t.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/token`, headers: { cookie: t.admin } });
    const g = connectGateway(t.port, tokenRes.json().token);
    open.push(g);
    const snapshot = await g.waitFor('snapshot', snapshotOf);
    g.ack(snapshot.revisionEpoch, snapshot.revision);
    await until('palisade_gateways_connected', location.id, 1);
    await until('palisade_gateway_revision_lag', location.id, 0);

    // A change the gateway receives but does not acknowledge: one revision behind.
    const key = newKey();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/device/admin',
      headers: { cookie: t.admin },
      payload: { name: `m-${key.slice(0, 6)}`, wireguard_pubkey: key },
    });
    expect(created.statusCode).toBe(201);
    const delta = await g.waitFor('the device delta', deltaOf);
    await until('palisade_gateway_revision_lag', location.id, 1);
    g.ack(snapshot.revisionEpoch, delta.revision);
    await until('palisade_gateway_revision_lag', location.id, 0);

    // The location's name is not a label; its id is.
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    expect(text).not.toContain(location.name);

    g.close();
    await until('palisade_gateways_connected', location.id, undefined);

    // A gateway that reconnects up to date gets no snapshot and acknowledges nothing: not behind.
    const again = connectGateway(t.port, tokenRes.json().token, {
      appliedRevisionEpoch: snapshot.revisionEpoch,
      appliedRevision: delta.revision,
    });
    open.push(again);
    await until('palisade_gateways_connected', location.id, 1);
    await until('palisade_gateway_revision_lag', location.id, 0);
    expect(again.received.map(snapshotOf).filter((s) => s !== undefined)).toEqual([]);
  });
});
