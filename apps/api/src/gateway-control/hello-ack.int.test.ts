import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectGateway, createGrpcApp, type GrpcTestApp, snapshotOf, type TestGateway, waitFor } from '#test/gateway-support.js';
import { createLocation } from '#test/network-fixtures.js';

/**
 * A gateway whose last ack never reached the database (the API process died before storing it)
 * reconnects saying, in its hello, that it applied the current revision. The API stores that as
 * its acknowledged revision: before, the gateway looked behind until the next change.
 */
let t: GrpcTestApp;
const open: TestGateway[] = [];

beforeAll(async () => {
  t = await createGrpcApp();
});
afterAll(async () => {
  for (const g of open) g.close();
  await t.close();
});

const gatewaysOf = async (locationId: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/network/${locationId}/gateways`, headers: { cookie: t.admin } })).json() as {
    acknowledged_revision: number;
    location_revision: number;
    connected: boolean;
  }[];

it("stores the revision of a reconnecting gateway's hello as acknowledged", async () => {
  const location = await createLocation(t.app, t.admin);
  const token = (await t.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/token`, headers: { cookie: t.admin } })).json()
    .token as string;
  const first = connectGateway(t.port, token);
  open.push(first);
  const snapshot = await first.waitFor('snapshot', snapshotOf);
  // It applies the snapshot, but its ack is lost with the process it was connected to.
  first.close();
  await first.waitEnded();
  expect((await gatewaysOf(location.id))[0]?.acknowledged_revision).toBe(0);

  const again = connectGateway(t.port, token, { appliedRevisionEpoch: snapshot.revisionEpoch, appliedRevision: snapshot.revision });
  open.push(again);
  let rows = await gatewaysOf(location.id);
  const deadline = Date.now() + 20_000;
  while (rows[0]?.acknowledged_revision !== Number(snapshot.revision) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    rows = await gatewaysOf(location.id);
  }
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ acknowledged_revision: Number(snapshot.revision), location_revision: Number(snapshot.revision) });
  // Up to date: no second snapshot.
  await waitFor('the stream to be open', () => !again.ended && again.error === undefined);
  expect(again.received.filter((m) => snapshotOf(m) !== undefined)).toHaveLength(0);
}, 60_000);
