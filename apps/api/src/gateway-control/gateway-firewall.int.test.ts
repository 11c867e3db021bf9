import { toBinary } from '@bufbuild/protobuf';
import { type Delta, DeltaSchema, type Firewall, FirewallVerdict } from '@palisade/proto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertAlias, insertRule, userIdOf } from '#test/acl-fixtures.js';
import { connectGateway, createGrpcApp, deltaOf, type GrpcTestApp, snapshotOf, type TestGateway, waitFor } from '#test/gateway-support.js';
import { addDevice, createLocation } from '#test/network-fixtures.js';

/**
 * The firewall part of the gateway stream on a real gRPC server and PostgreSQL: the snapshot
 * carries the compiled firewall, and ACL changes (rule deployed or deleted, membership, device
 * addresses, default policy, ACL off) reach a connected gateway as the firewall ops of that change
 * only (migration 0024 + firewall-feed.ts).
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

const db = () => t.database.db;

async function connect(locationId: number): Promise<TestGateway> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/network/${locationId}/token`, headers: { cookie: t.admin } });
  const g = connectGateway(t.port, res.json().token);
  open.push(g);
  return g;
}

/** The firewall ops of the deltas after `revision`, once `pick` finds what it waits for. */
async function deltasAfter(g: TestGateway, revision: bigint, what: string, done: (ds: Delta[]) => boolean): Promise<Delta[]> {
  return waitFor(what, () => {
    const ds = g.received.map(deltaOf).filter((d): d is Delta => d !== undefined && d.revision > revision);
    return done(ds) ? ds : undefined;
  });
}

const fwOps = (ds: Delta[]) => ds.flatMap((d) => d.ops.map((o) => o.op)).filter((o) => o.case?.startsWith('firewall'));
const opsOf = (ds: Delta[]) => fwOps(ds).map((o) => `${o.case}:${describeOp(o)}`);
function describeOp(o: Delta['ops'][number]['op']): string {
  switch (o.case) {
    case 'firewallRuleUpsert':
      return o.value.rule?.id ?? '';
    case 'firewallRuleRemove':
      return o.value.id;
    case 'firewallMemberUpsert':
      return o.value.member?.key ?? '';
    case 'firewallMemberRemove':
      return o.value.key;
    case 'firewallMemberListUpsert':
      return o.value.list?.members.join(',') ?? '';
    default:
      return '';
  }
}
const lastRevision = (g: TestGateway) =>
  g.received.reduce(
    (r, m) => (m.kind.case === 'delta' ? m.kind.value.revision : m.kind.case === 'snapshot' ? m.kind.value.revision : r),
    0n,
  );
const ruleIds = (fw: Firewall | undefined) => fw?.rules.map((r) => r.id);
/** A rule's member keys, from the member list it names. */
const membersOf = (fw: Firewall | undefined, rule: Firewall['rules'][number] | undefined) =>
  fw?.memberLists.find((l) => l.id === rule?.memberList)?.members;
/** The ops of rules (and members), without the member lists that rule upserts carry before them. */
const withoutLists = (ops: string[]) => ops.filter((o) => !o.startsWith('firewallMemberListUpsert'));

async function revisionOf(locationId: number): Promise<bigint> {
  const { rows } = (await db().execute(
    sql`select revision::text as r from gateway_location_state where location_id = ${locationId}`,
  )) as unknown as {
    rows: { r: string }[];
  };
  return BigInt(rows[0]?.r ?? '0');
}

/** Waits until the gateway received everything committed so far. */
async function settled(g: TestGateway, locationId: number): Promise<void> {
  const target = await revisionOf(locationId);
  await waitFor(`revision ${target}`, () => lastRevision(g) >= target).catch((e: Error) => {
    // What the gateway had when the wait gave up: a stream that ended (and why) or one left behind.
    const state = g.ended ? `its stream ended (${g.error?.message ?? 'no error'})` : 'its stream still open';
    throw new Error(`${e.message}: the gateway received up to revision ${lastRevision(g)}, ${state}`);
  });
}

async function aclLocation(overrides: Record<string, unknown> = {}) {
  return createLocation(t.app, t.admin, { acl_enabled: true, acl_default_allow: false, ...overrides });
}

describe('gateway firewall', () => {
  it('sends the compiled firewall in the snapshot, unmanaged with the ACL off', async () => {
    const plain = await createLocation(t.app, t.admin);
    const location = await aclLocation();
    const device = await addDevice(t.app, t.admin, 'admin');
    const admin = await userIdOf(db(), 'admin');
    const rule = await insertRule(db(), {
      locations: [location.id, plain.id],
      allowUsers: [admin],
      destinations: ['10.1.0.0/24'],
      ports: ['8080'],
    });
    await insertRule(db(), { state: 'new', locations: [location.id], allowUsers: [admin] });

    const fw = (await (await connect(location.id)).waitFor('snapshot', snapshotOf)).firewall;
    expect(fw).toMatchObject({ managed: true, defaultAllow: false });
    expect(fw?.rules.map((r) => [r.id, r.verdict, membersOf(fw, r), r.destinations, r.aclRuleId])).toEqual([
      [`r${rule}_allow`, FirewallVerdict.ACCEPT, [`d${device.device.id}`], ['10.1.0.0/24'], rule],
    ]);
    expect(fw?.memberLists).toHaveLength(1);
    const address = device.configs.find((c) => c.network_id === location.id)?.assigned_ips[0]?.split('/')[0];
    expect(fw?.members).toMatchObject([{ key: `d${device.device.id}`, addresses: [address] }]);

    const unmanaged = (await (await connect(plain.id)).waitFor('snapshot', snapshotOf)).firewall;
    expect(unmanaged).toMatchObject({ managed: false, rules: [], members: [] });
  });

  it('deploying, changing and deleting one rule sends that rule only, with bytes independent of the other rules', async () => {
    const location = await aclLocation();
    const admin = await userIdOf(db(), 'admin');
    const device = `d${(await addDevice(t.app, t.admin, 'admin')).device.id}`;
    const g = await connect(location.id);
    await g.waitFor('snapshot', snapshotOf);

    const deployOne = async () => {
      await settled(g, location.id);
      const before = lastRevision(g);
      const id = await insertRule(db(), { locations: [location.id], allowUsers: [admin], ports: ['443'] });
      const ds = await deltasAfter(g, before, 'the rule upsert', (x) => opsOf(x).includes(`firewallRuleUpsert:r${id}_allow`));
      return { id, ds };
    };
    const first = await deployOne();
    expect(opsOf(first.ds)).toEqual([
      `firewallRuleRemove:r${first.id}_deny`,
      `firewallRuleRemove:r${first.id}_claim`,
      // The rule's member list goes before the rule (the agent ignores a list it already has).
      `firewallMemberListUpsert:${device}`,
      `firewallRuleUpsert:r${first.id}_allow`,
    ]);
    for (let i = 0; i < 30; i++)
      await insertRule(db(), { locations: [location.id], allowUsers: [admin], destinations: [`10.9.${i}.0/24`] });
    const later = await deployOne();
    const size = (ds: Delta[]) => ds.reduce((n, d) => n + toBinary(DeltaSchema, d).length, 0);
    // Same shape, ids one digit longer at most.
    expect(size(later.ds)).toBeLessThanOrEqual(size(first.ds) * 1.2);

    const before = lastRevision(g);
    await db().execute(sql`update acl_rules set ports = '{22}', updated_at = now() where id = ${first.id}`);
    const changed = await deltasAfter(g, before, 'the changed rule', (x) => opsOf(x).includes(`firewallRuleUpsert:r${first.id}_allow`));
    const upsert = fwOps(changed).find((o) => o.case === 'firewallRuleUpsert');
    expect(upsert?.case === 'firewallRuleUpsert' && upsert.value.rule?.ports).toMatchObject([{ first: 22, last: 22 }]);
    expect(withoutLists(opsOf(changed)).every((o) => o.includes(`r${first.id}_`))).toBe(true);

    const beforeDelete = lastRevision(g);
    await db().execute(sql`delete from acl_rules where id = ${first.id}`);
    const deleted = await deltasAfter(g, beforeDelete, 'the removal', (x) => opsOf(x).includes(`firewallRuleRemove:r${first.id}_allow`));
    expect(opsOf(deleted).filter((o) => o.startsWith('firewallRuleUpsert'))).toEqual([]);
  });

  it('follows membership and addresses: a new device of an allowed user, a group member, a detached destination alias', async () => {
    const location = await aclLocation();
    const admin = await userIdOf(db(), 'admin');
    const { rows: groups } = (await db().execute(sql`insert into groups (name) values ('dev') returning id`)) as unknown as {
      rows: { id: number }[];
    };
    const group = groups[0]?.id as number;
    const alias = await insertAlias(db(), { kind: 'destination', destinations: ['10.3.0.0/16'] });
    const byUser = await insertRule(db(), { locations: [location.id], allowUsers: [admin], aliases: [alias], destinations: ['10.4.0.1'] });
    const byGroup = await insertRule(db(), { allLocations: true, allowGroups: [group], ports: ['22'] });
    const g = await connect(location.id);
    const snap = await g.waitFor('snapshot', snapshotOf);
    expect(ruleIds(snap.firewall)).toEqual([`r${byUser}_a${alias}_allow`, `r${byUser}_allow`, `r${byGroup}_allow`]);

    let before = lastRevision(g);
    const device = await addDevice(t.app, t.admin, 'admin');
    const key = `d${device.device.id}`;
    const added = await deltasAfter(
      g,
      before,
      'member and rule upserts',
      (x) => opsOf(x).includes(`firewallMemberUpsert:${key}`) && opsOf(x).includes(`firewallRuleUpsert:r${byUser}_allow`),
    );
    const upserted = fwOps(added)
      .filter((o) => o.case === 'firewallRuleUpsert')
      .map((o) => (o.case === 'firewallRuleUpsert' ? o.value.rule : undefined));
    const lists = fwOps(added).flatMap((o) => (o.case === 'firewallMemberListUpsert' && o.value.list ? [o.value.list] : []));
    const named = upserted.find((r) => r?.id === `r${byUser}_allow`)?.memberList;
    expect(lists.find((l) => l.id === named)?.members).toEqual([key]);
    expect(opsOf(added).some((o) => o.includes(`r${byGroup}_`))).toBe(false);

    before = lastRevision(g);
    await db().execute(sql`insert into group_members (group_id, user_id) values (${group}, ${admin})`);
    const joined = await deltasAfter(g, before, 'the group rule upsert', (x) => opsOf(x).includes(`firewallRuleUpsert:r${byGroup}_allow`));
    expect(opsOf(joined).some((o) => o.includes(`r${byUser}_`))).toBe(false);

    before = lastRevision(g);
    await db().execute(sql`delete from acl_rule_aliases where rule_id = ${byUser}`);
    const detached = await deltasAfter(g, before, 'the alias part removal', (x) =>
      opsOf(x).includes(`firewallRuleRemove:r${byUser}_a${alias}_allow`),
    );
    expect(opsOf(detached)).toContain(`firewallRuleUpsert:r${byUser}_allow`);

    before = lastRevision(g);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/device/${device.device.id}`, headers: { cookie: t.admin } });
    await deltasAfter(g, before, 'the member removal', (x) => opsOf(x).includes(`firewallMemberRemove:${key}`));
  });

  it('replaces the whole firewall when the default policy or the ACL mode changes', async () => {
    const location = await aclLocation();
    const admin = await userIdOf(db(), 'admin');
    const rule = await insertRule(db(), { locations: [location.id], allowUsers: [admin] });
    const g = await connect(location.id);
    await g.waitFor('snapshot', snapshotOf);
    const replaceOf = (ds: Delta[]) =>
      fwOps(ds)
        .map((o) => (o.case === 'firewallReplace' ? o.value.firewall : undefined))
        .find(Boolean);

    let before = lastRevision(g);
    await db().execute(sql`update locations set acl_default_allow = true where id = ${location.id}`);
    const open = replaceOf(await deltasAfter(g, before, 'a replace', (x) => replaceOf(x) !== undefined));
    expect(open).toMatchObject({ managed: true, defaultAllow: true });
    expect(ruleIds(open)).toEqual([`r${rule}_allow`, `r${rule}_claim`]);

    before = lastRevision(g);
    await db().execute(sql`update locations set acl_enabled = false where id = ${location.id}`);
    const off = replaceOf(await deltasAfter(g, before, 'an unmanaged replace', (x) => replaceOf(x) !== undefined));
    expect(off).toMatchObject({ managed: false, rules: [], members: [] });

    // With the ACL off, rule changes do not touch this location's revision.
    const revision = lastRevision(g);
    await insertRule(db(), { locations: [location.id], allowUsers: [admin] });
    const { rows } = (await db().execute(
      sql`select revision::text as r from gateway_location_state where location_id = ${location.id}`,
    )) as unknown as {
      rows: { r: string }[];
    };
    expect(BigInt(rows[0]?.r ?? '0')).toBe(revision);
  });

  it('rules created, changed and deleted through the ACL API reach the gateway only when deployed', async () => {
    const location = await aclLocation();
    await addDevice(t.app, t.admin, 'admin');
    const g = await connect(location.id);
    await g.waitFor('snapshot', snapshotOf);
    const api = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      t.app.inject({ method, url, headers: { cookie: t.admin }, ...(payload === undefined ? {} : { payload: payload as string }) });
    const body = (extra: Record<string, unknown> = {}) => ({
      name: 'web',
      locations: [location.id],
      allowed_users: ['admin'],
      destinations: ['10.1.0.0/16'],
      ports: ['443'],
      protocols: ['tcp'],
      ...extra,
    });
    const created = await api('POST', '/api/v1/acl/rule', body());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    await settled(g, location.id);
    expect(opsOf(g.received.map(deltaOf).filter((d): d is Delta => d !== undefined))).toEqual([]);

    let before = lastRevision(g);
    expect((await api('PUT', '/api/v1/acl/rule/apply', { rules: [id] })).statusCode).toBe(204);
    await deltasAfter(g, before, 'the deployed rule', (x) => opsOf(x).includes(`firewallRuleUpsert:r${id}_allow`));

    await settled(g, location.id);
    before = lastRevision(g);
    const child = (await api('PUT', `/api/v1/acl/rule/${id}`, body({ ports: ['8443'] }))).json().id as number;
    await settled(g, location.id);
    expect(lastRevision(g)).toBe(before);
    expect((await api('PUT', '/api/v1/acl/rule/apply', { rules: [child] })).statusCode).toBe(204);
    const changed = await deltasAfter(g, before, 'the deployed change', (x) => opsOf(x).includes(`firewallRuleUpsert:r${id}_allow`));
    const rule = fwOps(changed).find((o) => o.case === 'firewallRuleUpsert');
    expect(rule?.case === 'firewallRuleUpsert' && rule.value.rule?.ports).toMatchObject([{ first: 8443, last: 8443 }]);

    await settled(g, location.id);
    before = lastRevision(g);
    expect((await api('DELETE', `/api/v1/acl/rule/${id}`)).statusCode).toBe(204);
    await settled(g, location.id);
    expect(lastRevision(g)).toBe(before);
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/acl/rule', headers: { cookie: t.admin } });
    const pending = (listed.json() as { id: number; parent_id?: number; state: string }[]).find((r) => r.parent_id === id)?.id;
    expect(pending).toBeDefined();
    expect((await api('PUT', '/api/v1/acl/rule/apply', { rules: [pending] })).statusCode).toBe(204);
    await deltasAfter(g, before, 'the deployed deletion', (x) => opsOf(x).includes(`firewallRuleRemove:r${id}_allow`));
  });

  it('a deployed alias change reaches the gateway as upserts of the rules using it', async () => {
    const location = await aclLocation();
    await addDevice(t.app, t.admin, 'admin');
    const api = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
      t.app.inject({ method, url, headers: { cookie: t.admin }, payload: payload as string });
    const aliasBody = { name: 'db', kind: 'destination', destinations: ['10.9.0.0/24'], ports: ['5432'], protocols: ['tcp'] };
    const alias = (await api('POST', '/api/v1/acl/alias', aliasBody)).json().id as number;
    const rule = (
      await api('POST', '/api/v1/acl/rule', { name: 'db', locations: [location.id], allowed_users: ['admin'], aliases: [alias] })
    ).json().id as number;
    expect((await api('PUT', '/api/v1/acl/rule/apply', { rules: [rule] })).statusCode).toBe(204);
    const g = await connect(location.id);
    const snap = await g.waitFor('snapshot', snapshotOf);
    expect(snap.firewall?.rules.find((r) => r.id === `r${rule}_a${alias}_allow`)?.destinations).toEqual(['10.9.0.0/24']);

    await settled(g, location.id);
    const before = lastRevision(g);
    const child = await api('PUT', `/api/v1/acl/alias/${alias}`, { ...aliasBody, destinations: ['10.10.0.0/24'] });
    expect(child.statusCode, child.body).toBe(200);
    expect((await api('PUT', '/api/v1/acl/alias/apply', { aliases: [child.json().id] })).statusCode).toBe(204);
    const ds = await deltasAfter(g, before, 'the alias part upsert', (x) =>
      opsOf(x).includes(`firewallRuleUpsert:r${rule}_a${alias}_allow`),
    );
    const upsert = fwOps(ds).find((o) => o.case === 'firewallRuleUpsert' && o.value.rule?.id === `r${rule}_a${alias}_allow`);
    expect(upsert?.case === 'firewallRuleUpsert' && upsert.value.rule?.destinations).toEqual(['10.10.0.0/24']);
  });
});
