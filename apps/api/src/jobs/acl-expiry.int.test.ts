import type { Delta } from '@palisade/proto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepExpiredRules } from '#src/modules/acl/compiler/expiry.repo.js';
import { insertRule, userIdOf } from '#test/acl-fixtures.js';
import { connectGateway, createGrpcApp, deltaOf, type GrpcTestApp, snapshotOf, type TestGateway, waitFor } from '#test/gateway-support.js';
import { addDevice, createLocation } from '#test/network-fixtures.js';
import { aclExpiryJob } from './acl-expiry.js';
import type { Job, JobContext } from './jobs.js';

/** An applied rule stops applying on the gateways at its expiry: the job sends its removal. */
let t: GrpcTestApp;
let gateway: TestGateway | undefined;
let job: Job | undefined;

beforeAll(async () => {
  t = await createGrpcApp({ reset: false });
});
afterAll(async () => {
  gateway?.close();
  await job?.stop();
  await t.close();
});
beforeEach(async () => {
  gateway?.close();
  await job?.stop();
  job = undefined;
  await t.close();
  t = await createGrpcApp();
});

const removals = (g: TestGateway) =>
  g.received
    .map(deltaOf)
    .filter((d): d is Delta => d !== undefined)
    .flatMap((d) => d.ops.map((o) => (o.op.case === 'firewallRuleRemove' ? o.op.value.id : undefined)))
    .filter(Boolean);

async function setUp(expiresInMs: number) {
  const location = await createLocation(t.app, t.admin, { acl_enabled: true });
  await addDevice(t.app, t.admin, 'admin');
  const admin = await userIdOf(t.database.db, 'admin');
  const rule = await insertRule(t.database.db, {
    locations: [location.id],
    allowUsers: [admin],
    expires: new Date(Date.now() + expiresInMs),
  });
  const lasting = await insertRule(t.database.db, { locations: [location.id], allowUsers: [admin], ports: ['22'] });
  const token = (await t.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/token`, headers: { cookie: t.admin } })).json()
    .token;
  gateway = connectGateway(t.port, token);
  return { location, rule, lasting, snapshot: await gateway.waitFor('snapshot', snapshotOf) };
}

describe('ACL expiry', () => {
  it('removes an expired rule from connected gateways within the sweep interval, once', async () => {
    const { rule, lasting, snapshot } = await setUp(1500);
    expect(snapshot.firewall?.rules.map((r) => r.id)).toEqual([`r${rule}_allow`, `r${lasting}_allow`]);
    job = aclExpiryJob({ database: t.database, log: t.app.log, aclExpiryIntervalMs: 100 } as unknown as JobContext);
    job.start();
    const g = gateway as TestGateway;
    await waitFor('the expired rule removal', () => removals(g).includes(`r${rule}_allow`), 10_000);
    expect(removals(g).some((id) => id?.startsWith(`r${lasting}_`))).toBe(false);
    // Already swept: later sweeps mark nothing.
    await job.stop();
    job = undefined;
    expect(await sweepExpiredRules(t.database.db)).toEqual([]);
  });

  it('catches up on rules that expired while no sweep ran', async () => {
    const { rule } = await setUp(60_000);
    await t.database.db.execute(
      sql`insert into gateway_acl_expiry (id, swept_until) values (1, now() - interval '1 hour')
          on conflict (id) do update set swept_until = excluded.swept_until`,
    );
    // Expired an hour ago by the clock, never swept (the API was down).
    await t.database.db.execute(sql`update acl_rules set expires = now() - interval '30 minutes' where id = ${rule}`);
    expect(await sweepExpiredRules(t.database.db)).toEqual([rule]);
  });
});
