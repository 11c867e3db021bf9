import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { createLocation, newKey } from '#test/network-fixtures.js';

describe('ACL rules', () => {
  let t: TestApp;
  let admin: string;
  let locationId: number;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    locationId = (await createLocation(t.app, admin)).id;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, cookie = admin) =>
    t.request(method, url, { cookie, ...(payload !== undefined ? { payload } : {}) });
  const body = (extra: Record<string, unknown> = {}) => ({
    name: 'web',
    locations: [locationId],
    allowed_users: ['admin'],
    destinations: ['10.1.0.0/16'],
    ports: ['443'],
    protocols: ['tcp'],
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/v1/acl/rule', body(extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; [k: string]: unknown };
  };
  const apply = (rules: number[]) => call('PUT', '/api/v1/acl/rule/apply', { rules });
  const list = async () =>
    (await call('GET', '/api/v1/acl/rule')).json() as { id: number; parent_id?: number; state: string; status: string; name: string }[];
  const eventTypes = async () =>
    (
      (await t.database.db.execute(sql`select type, object_id from events where module = 'acl' order by id`)) as unknown as {
        rows: { type: string; object_id: string }[];
      }
    ).rows.map((r) => `${r.type}:${r.object_id}`);
  const fieldErrors = (res: { json(): { errors?: { path: string; code: string }[] } }) =>
    (res.json().errors ?? []).map((e) => `${e.path}:${e.code}`);

  it('creates a pending rule, reads and lists it, deploys it', async () => {
    const rule = await create({ priority: 5, expires: '2099-01-01T00:00:00Z', denied_groups: ['admin'] });
    expect(rule).toEqual({
      id: expect.any(Number),
      name: 'web',
      priority: 5,
      status: 'new',
      state: 'new',
      enabled: true,
      expires: '2099-01-01T00:00:00.000Z',
      all_locations: false,
      locations: [locationId],
      allow_all_users: false,
      allowed_users: ['admin'],
      allowed_groups: [],
      allow_all_network_devices: false,
      allowed_network_devices: [],
      deny_all_users: false,
      denied_users: [],
      denied_groups: ['admin'],
      deny_all_network_devices: false,
      denied_network_devices: [],
      destinations: ['10.1.0.0/16'],
      ports: ['443'],
      protocols: ['tcp'],
      aliases: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await call('GET', `/api/v1/acl/rule/${rule.id}`)).json()).toEqual(rule);
    expect(await list()).toEqual([rule]);
    expect((await apply([rule.id])).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/acl/rule/${rule.id}`)).json()).toMatchObject({ state: 'applied', status: 'applied' });
    expect(await eventTypes()).toEqual([`acl_rule.created:${rule.id}`, `acl_rule.applied:${rule.id}`]);
  });

  it('edits a new rule in place; editing a deployed rule creates one pending child, deployed onto the parent (which keeps its id)', async () => {
    const rule = await create();
    const edited = await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ name: 'web2' }));
    expect(edited.json()).toMatchObject({ id: rule.id, name: 'web2', state: 'new' });
    await apply([rule.id]);

    const changed = await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ name: 'web3', ports: ['80', '8000-8100'] }));
    expect(changed.statusCode).toBe(200);
    const child = changed.json();
    expect(child).toMatchObject({ parent_id: rule.id, state: 'modified', status: 'modified', name: 'web3', ports: ['80', '8000-8100'] });
    // A second edit (through the parent or the child) updates the same child.
    const again = await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ name: 'web4' }));
    expect(again.json()).toMatchObject({ id: child.id, name: 'web4' });
    const viaChild = await call('PUT', `/api/v1/acl/rule/${child.id}`, body({ name: 'web5' }));
    expect(viaChild.json()).toMatchObject({ id: child.id, name: 'web5' });
    expect((await list()).map((r) => [r.id, r.state, r.name])).toEqual([
      [rule.id, 'applied', 'web2'],
      [child.id, 'modified', 'web5'],
    ]);

    expect((await apply([child.id])).statusCode).toBe(204);
    expect((await list()).map((r) => [r.id, r.state, r.name])).toEqual([[rule.id, 'applied', 'web5']]);
  });

  it('shows enabled/disabled for a pending change of enabled only, expired for a deployed rule past its time', async () => {
    const rule = await create();
    await apply([rule.id]);
    const disabled = (await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ enabled: false }))).json();
    expect(disabled).toMatchObject({ state: 'modified', status: 'disabled' });
    expect((await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ enabled: false, name: 'other' }))).json().status).toBe('modified');
    await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ enabled: false }));
    await apply([disabled.id]);
    expect((await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ enabled: true }))).json()).toMatchObject({ status: 'enabled' });

    const past = await create({ expires: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe('new');
    await apply([past.id]);
    expect((await call('GET', `/api/v1/acl/rule/${past.id}`)).json()).toMatchObject({ state: 'applied', status: 'expired' });
  });

  it('deleting a deployed rule creates a pending deletion; deploying it deletes the rule; deleting a pending row discards it', async () => {
    const rule = await create();
    await apply([rule.id]);
    expect((await call('DELETE', `/api/v1/acl/rule/${rule.id}`)).statusCode).toBe(204);
    const [, deletion] = await list();
    expect(deletion).toMatchObject({ parent_id: rule.id, state: 'deleted', status: 'deleted', name: 'web' });
    // Deleting the pending deletion discards it: the deployed rule stays.
    expect((await call('DELETE', `/api/v1/acl/rule/${deletion?.id}`)).statusCode).toBe(204);
    expect((await list()).map((r) => r.state)).toEqual(['applied']);
    // A pending modification turns into the pending deletion.
    await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ name: 'changed' }));
    await call('DELETE', `/api/v1/acl/rule/${rule.id}`);
    const children = (await list()).filter((r) => r.parent_id === rule.id);
    expect(children.map((r) => [r.state, r.name])).toEqual([['deleted', 'web']]);
    expect((await apply([children[0]?.id as number])).statusCode).toBe(204);
    expect(await list()).toEqual([]);

    const fresh = await create();
    expect((await call('DELETE', `/api/v1/acl/rule/${fresh.id}`)).statusCode).toBe(204);
    expect(await list()).toEqual([]);
    expect((await call('GET', `/api/v1/acl/rule/${fresh.id}`)).json().code).toBe('acl.rule_not_found');
    expect((await eventTypes()).filter((e) => e.startsWith('acl_rule.deleted') || e.startsWith('acl_rule.discarded'))).toEqual([
      `acl_rule.deleted:${rule.id}`,
      `acl_rule.discarded:${rule.id}`,
      `acl_rule.deleted:${rule.id}`,
      `acl_rule.discarded:${fresh.id}`,
    ]);
  });

  it('applies and discards only the listed pending rules (partial), all or none', async () => {
    const a = await create({ name: 'a' });
    const b = await create({ name: 'b' });
    const c = await create({ name: 'c' });
    expect((await apply([a.id])).statusCode).toBe(204);
    // An applied rule in the list refuses the whole call; nothing else is deployed.
    const refused = await apply([b.id, a.id]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('acl.not_pending');
    const missing = await apply([b.id, 999999]);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('acl.rule_not_found');
    expect((await list()).map((r) => [r.name, r.state])).toEqual([
      ['a', 'applied'],
      ['b', 'new'],
      ['c', 'new'],
    ]);
    const modified = (await call('PUT', `/api/v1/acl/rule/${a.id}`, body({ name: 'a2' }))).json();
    expect((await call('PUT', '/api/v1/acl/rule/discard', { rules: [b.id, modified.id] })).statusCode).toBe(204);
    expect((await list()).map((r) => [r.name, r.state])).toEqual([
      ['a', 'applied'],
      ['c', 'new'],
    ]);
    expect((await call('PUT', '/api/v1/acl/rule/discard', { rules: [a.id] })).json().code).toBe('acl.not_pending');
    expect((await call('PUT', '/api/v1/acl/rule/discard', { rules: [] })).statusCode).toBe(400);
    expect(c.state).toBe('new');
  });

  it('a change of a deployed rule and the deploy of its pending change, interleaved, queue instead of deadlocking', async () => {
    const rule = await create({ name: 'r' });
    await apply([rule.id]);
    const child = (await call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ name: 'ra' }))).json();
    const db = t.database.db;
    const waiting = async () =>
      Number(
        (
          (await db.execute(
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]?.n,
      );
    const waitFor = async (n: number) => {
      const deadline = Date.now() + 10_000;
      while ((await waiting()) < n) {
        if (Date.now() > deadline) throw new Error(`fewer than ${n} requests waiting on a lock`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // Hold the admin user row: the change locks the deployed rule, then waits looking up its member.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked = () => {};
    const holding = new Promise<void>((r) => {
      locked = r;
    });
    const holder = t.database.withConnection(async (conn) => {
      await conn.transaction(async (tx) => {
        await tx.execute(sql`select id from users where username = 'admin' for update`);
        locked();
        await held;
      });
    });
    await holding;
    const edit = call('PUT', `/api/v1/acl/rule/${rule.id}`, body({ name: 'rb' }));
    await waitFor(1);
    // The deploy needs the deployed rule too: it must wait for it without holding the pending change.
    const deploy = apply([child.id]);
    await waitFor(2);
    release();
    await holder;
    const [edited, deployed] = await Promise.all([edit, deploy]);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(deployed.statusCode, deployed.body).toBe(204);
    expect((await list()).map((r) => [r.id, r.name])).toEqual([[rule.id, 'rb']]);
  });

  it('resolves members by name (any case) and checks that everything named exists', async () => {
    await t.createUser('alice');
    const group = await call('POST', '/api/v1/group', { name: 'Dev', members: [] });
    expect(group.statusCode, group.body).toBe(201);
    const device = await call('POST', '/api/v1/device/network', { name: 'printer', location_id: locationId, wireguard_pubkey: newKey() });
    expect(device.statusCode, device.body).toBe(201);
    const deviceId = device.json().device.id as number;
    const alias = (await call('POST', '/api/v1/acl/alias', { name: 'db', kind: 'component', destinations: ['10.9.0.0/24'] })).json();

    const rule = await create({
      allowed_users: ['ALICE'],
      allowed_groups: ['dev'],
      denied_network_devices: [deviceId],
      aliases: [alias.id],
    });
    expect(rule).toMatchObject({
      allowed_users: ['alice'],
      allowed_groups: ['Dev'],
      denied_network_devices: [deviceId],
      aliases: [alias.id],
    });

    const bad = await call(
      'POST',
      '/api/v1/acl/rule',
      body({
        allowed_users: ['nobody'],
        allowed_groups: ['none'],
        locations: [999999],
        allowed_network_devices: [999999],
        aliases: [999999],
      }),
    );
    expect(bad.statusCode).toBe(400);
    expect(fieldErrors(bad)).toEqual([
      'locations:acl.location_not_found',
      'allowed_users:user.not_found',
      'allowed_groups:group.not_found',
      'allowed_network_devices:acl.network_device_not_found',
      'aliases:acl.alias_not_found',
    ]);
    // A user device is no network device.
    const userDevice = await call('POST', '/api/v1/device/alice', { name: 'laptop', wireguard_pubkey: newKey() });
    const userDeviceId = userDevice.json().device.id as number;
    expect(fieldErrors(await call('POST', '/api/v1/acl/rule', body({ allowed_network_devices: [userDeviceId] })))).toEqual([
      'allowed_network_devices:acl.network_device_not_found',
    ]);
  });

  it('answers 400 with the spec names and field codes for bad rules, never a 500', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ denied_users: ['admin'] }, ['denied_users:acl.allow_deny_conflict']],
      [{ allow_all_users: true, deny_all_users: true }, ['deny_all_users:acl.allow_deny_conflict']],
      [{ allowed_users: [] }, ['allowed_users:acl.allow_not_configured']],
      [{ locations: [] }, ['locations:required']],
      [{ name: ' ' }, ['name:required']],
      [{ priority: 65536 }, ['priority:max_value']],
      [{ priority: -1 }, ['priority:min_value']],
      [
        { destinations: ['10.0.0.9-10.0.0.1', 'fd00::1-10.0.0.1', 'nope', '10.0.0.0/40'] },
        [0, 1, 2, 3].map((i) => `destinations.${i}:acl.destination`),
      ],
      [{ ports: ['0', '65536', '90-80', 'x'] }, [0, 1, 2, 3].map((i) => `ports.${i}:acl.port`)],
      [{ protocols: ['gre'] }, ['protocols.0:acl.protocol']],
      [{ ports: ['22'], protocols: ['icmp'] }, ['ports:acl.ports_need_tcp_udp']],
      [{ expires: 'tomorrow' }, ['expires:invalid']],
      [{ surprise: true }, ['surprise:unknown_field']],
      [{ allowed_users: 'admin' }, ['allowed_users:invalid_type']],
    ];
    for (const [extra, expected] of cases) {
      const res = await call('POST', '/api/v1/acl/rule', body(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(fieldErrors(res), JSON.stringify(extra)).toEqual(expected);
    }
    // The rule's ports and its component aliases' protocols form one selector.
    const icmp = (await call('POST', '/api/v1/acl/alias', { name: 'ping', kind: 'component', protocols: ['icmp'] })).json();
    expect(fieldErrors(await call('POST', '/api/v1/acl/rule', body({ protocols: [], aliases: [icmp.id] })))).toEqual([
      'ports:acl.ports_need_tcp_udp',
    ]);
    // Not found, not a 500, for ids out of range or not numbers.
    expect((await call('GET', '/api/v1/acl/rule/abc')).statusCode).toBe(400);
    expect((await call('PUT', '/api/v1/acl/rule/99999', body())).statusCode).toBe(404);
    expect((await call('DELETE', '/api/v1/acl/rule/99999')).statusCode).toBe(404);
    expect(await list()).toEqual([]);
  });

  it('refuses non-admins', async () => {
    const user = await t.createUser('bob');
    for (const [method, url] of [
      ['GET', '/api/v1/acl/rule'],
      ['POST', '/api/v1/acl/rule'],
      ['PUT', '/api/v1/acl/rule/apply'],
      ['DELETE', '/api/v1/acl/rule/1'],
      ['GET', '/api/v1/acl/alias'],
    ] as const) {
      expect((await call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {}, user)).statusCode, `${method} ${url}`).toBe(
        403,
      );
    }
  });
});
