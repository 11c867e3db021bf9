import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertRule, userIdOf } from '#test/acl-fixtures.js';
import { createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation, newKey } from '#test/network-fixtures.js';

/**
 * GET /acl/check on real PostgreSQL: the verdict of the deployed ACL, from the compiler and
 * first-match decision the gateways get (the system test's scenario: group "dev" may reach 8080).
 */
describe('ACL access check', () => {
  let t: TestApp;
  let admin: string;
  let location: number;
  let alice: number;
  let bob: number;
  let dev: number;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    location = (await createLocation(t.app, admin, { acl_enabled: true, acl_default_allow: false })).id;
    await t.newUser(admin, 'alice');
    await t.newUser(admin, 'bob');
    alice = await userIdOf(t.database.db, 'alice');
    bob = await userIdOf(t.database.db, 'bob');
    const { rows } = (await t.database.db.execute(sql`insert into groups (name) values ('dev') returning id`)) as unknown as {
      rows: { id: number }[];
    };
    dev = rows[0]?.id as number;
    await t.database.db.execute(sql`insert into group_members (group_id, user_id) values (${dev}, ${alice})`);
  });
  afterAll(() => t.close());

  const check = (query: Record<string, string | number>, cookie = admin) =>
    t.request(
      'GET',
      `/api/v1/acl/check?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]))}`,
      { cookie },
    );
  const verdict = async (source: string, destination: string, port: number | undefined, protocol = 'tcp', where = location) => {
    const res = await check({ location: where, source, destination, protocol, ...(port === undefined ? {} : { port }) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      verdict: string;
      decided_by: { kind: string; rule_id?: number; rule_name?: string; firewall_rule_id?: string };
      mode: string;
      source_devices: number[];
    };
  };

  it('answers by membership: group dev reaches 8080 only; others fall to the default policy', async () => {
    const rule = await insertRule(t.database.db, {
      name: 'dev web',
      locations: [location],
      allowGroups: [dev],
      destinations: ['10.50.0.0/24'],
      ports: ['8080'],
      protocols: ['tcp'],
    });
    const device = await addDevice(t.app, admin, 'alice');
    expect(await verdict(`user:${alice}`, '10.50.0.5', 8080)).toEqual({
      verdict: 'allow',
      decided_by: { kind: 'rule', rule_id: rule, rule_name: 'dev web', firewall_rule_id: `r${rule}_allow` },
      mode: 'deny_by_default',
      source_devices: [device.device.id],
    });
    expect((await verdict(`device:${device.device.id}`, '10.50.0.5', 8080)).verdict).toBe('allow');
    expect(await verdict(`user:${alice}`, '10.50.0.5', 9090)).toMatchObject({ verdict: 'deny', decided_by: { kind: 'default' } });
    expect(await verdict(`user:${alice}`, '10.50.0.5', 8080, 'udp')).toMatchObject({ verdict: 'deny', decided_by: { kind: 'default' } });
    // Bob has no device at all: his membership still answers.
    expect(await verdict(`user:${bob}`, '10.50.0.5', 8080)).toMatchObject({
      verdict: 'deny',
      decided_by: { kind: 'default' },
      source_devices: [],
    });
    const forBob = await insertRule(t.database.db, {
      locations: [location],
      allowUsers: [bob],
      destinations: ['10.50.0.0/24'],
      ports: ['8080'],
    });
    expect(await verdict(`user:${bob}`, '10.50.0.5', 8080)).toMatchObject({ verdict: 'allow', decided_by: { rule_id: forBob } });
  });

  it('lets a deny win at the same priority, a lower priority decide, and ignores pending, disabled and expired rules', async () => {
    const allow = await insertRule(t.database.db, { locations: [location], allowGroups: [dev], ports: ['22'] });
    const deny = await insertRule(t.database.db, { locations: [location], allowUsers: [bob], denyUsers: [alice], ports: ['22'] });
    expect(await verdict(`user:${alice}`, '10.0.0.1', 22)).toMatchObject({
      verdict: 'deny',
      decided_by: { rule_id: deny, firewall_rule_id: `r${deny}_deny` },
    });
    await t.database.db.execute(sql`update acl_rules set priority = 10 where id = ${allow}`);
    expect(await verdict(`user:${alice}`, '10.0.0.1', 22)).toMatchObject({ verdict: 'allow', decided_by: { rule_id: allow } });
    await insertRule(t.database.db, { state: 'new', priority: 1, locations: [location], denyUsers: [alice], allowUsers: [bob] });
    await insertRule(t.database.db, { enabled: false, priority: 1, locations: [location], denyUsers: [alice], allowUsers: [bob] });
    await insertRule(t.database.db, {
      expires: new Date(Date.now() - 1000),
      priority: 1,
      locations: [location],
      denyUsers: [alice],
      allowUsers: [bob],
    });
    expect(await verdict(`user:${alice}`, '10.0.0.1', 22)).toMatchObject({ verdict: 'allow', decided_by: { rule_id: allow } });
  });

  it('under allow-by-default a rule claims its destination; elsewhere the default allows; with the ACL off everything passes', async () => {
    await t.database.db.execute(sql`update locations set acl_default_allow = true where id = ${location}`);
    const rule = await insertRule(t.database.db, { locations: [location], allowUsers: [alice], destinations: ['fd00:50::/64'] });
    expect(await verdict(`user:${bob}`, 'fd00:50::9', undefined, 'icmp')).toMatchObject({
      verdict: 'deny',
      decided_by: { rule_id: rule, firewall_rule_id: `r${rule}_claim` },
      mode: 'allow_by_default',
    });
    expect(await verdict(`user:${alice}`, 'fd00:50::9', undefined, 'icmp')).toMatchObject({ verdict: 'allow' });
    expect(await verdict(`user:${bob}`, '10.9.9.9', 443)).toMatchObject({ verdict: 'allow', decided_by: { kind: 'default' } });
    await t.database.db.execute(sql`update locations set acl_enabled = false where id = ${location}`);
    expect(await verdict(`user:${bob}`, 'fd00:50::9', undefined, 'icmp')).toMatchObject({ verdict: 'allow', mode: 'unmanaged' });
  });

  it('checks network devices named by the rule or by "all network devices"', async () => {
    const res = await t.request('POST', '/api/v1/device/network', {
      cookie: admin,
      payload: { name: 'router', location_id: location, wireguard_pubkey: newKey() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const router = res.json().device.id as number;
    expect((await verdict(`network_device:${router}`, '10.1.1.1', 53, 'udp')).verdict).toBe('deny');
    const rule = await insertRule(t.database.db, { locations: [location], allowDevices: [router], ports: ['53'] });
    expect(await verdict(`network_device:${router}`, '10.1.1.1', 53, 'udp')).toMatchObject({
      verdict: 'allow',
      decided_by: { rule_id: rule },
    });
    expect((await verdict(`user:${alice}`, '10.1.1.1', 53, 'udp')).verdict).toBe('deny');
  });

  it('refuses bad input with 400, unknown objects with 404, non-admins with 403', async () => {
    const base = { location, source: `user:${alice}`, destination: '10.0.0.1', port: 80, protocol: 'tcp' };
    const bad: Record<string, string | number>[] = [
      { ...base, source: 'group:1' },
      { ...base, source: 'user:abc' },
      { ...base, destination: '10.0.0.0/24' },
      { ...base, destination: 'example.com' },
      { ...base, protocol: 'sctp' },
      { ...base, port: 70000 },
      { ...base, port: 0 },
      { ...base, protocol: 'icmp' },
      { location, source: base.source, destination: base.destination, protocol: 'tcp' },
      { ...base, location: 'x' },
      { ...base, location: 99999999999 },
    ];
    for (const query of bad) {
      const res = await check(query);
      expect(problemOf(res), JSON.stringify(query)).toMatchObject({ status: 400, code: 'validation.failed' });
    }
    expect(problemOf(await check({ ...base, location: 999999 }))).toMatchObject({ status: 404, code: 'network.not_found' });
    expect(problemOf(await check({ ...base, source: 'user:999999' }))).toMatchObject({ status: 404, code: 'user.not_found' });
    expect(problemOf(await check({ ...base, source: 'device:999999' }))).toMatchObject({ status: 404, code: 'device.not_found' });
    const device = await addDevice(t.app, admin, 'alice');
    expect(problemOf(await check({ ...base, source: `network_device:${device.device.id}` }))).toMatchObject({
      status: 404,
      code: 'device.not_found',
    });
    const user = await t.createUser('carol');
    expect(problemOf(await check(base, user))).toMatchObject({ status: 403 });
  });
});
