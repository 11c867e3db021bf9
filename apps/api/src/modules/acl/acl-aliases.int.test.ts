import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { createLocation } from '#test/network-fixtures.js';

describe('ACL aliases', () => {
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
  const aliasBody = (extra: Record<string, unknown> = {}) => ({
    name: 'db',
    kind: 'destination',
    destinations: ['10.9.0.0/24', 'fd00::5'],
    ports: ['5432'],
    protocols: ['tcp'],
    ...extra,
  });
  const createAlias = async (extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/v1/acl/alias', aliasBody(extra));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; [k: string]: unknown };
  };
  const createRule = async (name: string, aliases: number[], deploy: boolean) => {
    const res = await call('POST', '/api/v1/acl/rule', { name, all_locations: true, allow_all_users: true, aliases });
    expect(res.statusCode, res.body).toBe(201);
    const rule = res.json() as { id: number; name: string };
    if (deploy) expect((await call('PUT', '/api/v1/acl/rule/apply', { rules: [rule.id] })).statusCode).toBe(204);
    return rule;
  };
  const aliases = async () =>
    (await call('GET', '/api/v1/acl/alias')).json() as { id: number; parent_id?: number; state: string; name: string; rules: unknown[] }[];
  const eventTypes = async () =>
    (
      (await t.database.db.execute(
        sql`select type, object_id, details from events where type like 'acl_alias.%' order by id`,
      )) as unknown as {
        rows: { type: string; object_id: string; details: Record<string, unknown> }[];
      }
    ).rows;

  it('creates an alias deployed at once; reads, lists, changes in place while no deployed rule uses it', async () => {
    const alias = await createAlias();
    expect(alias).toEqual({
      id: expect.any(Number),
      name: 'db',
      kind: 'destination',
      state: 'applied',
      destinations: ['10.9.0.0/24', 'fd00::5'],
      ports: ['5432'],
      protocols: ['tcp'],
      rules: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await call('GET', `/api/v1/acl/alias/${alias.id}`)).json()).toEqual(alias);
    expect(await aliases()).toEqual([alias]);
    // Only a pending rule uses it: changed in place.
    await createRule('pending', [alias.id], false);
    const changed = await call('PUT', `/api/v1/acl/alias/${alias.id}`, aliasBody({ name: 'db2', kind: 'component' }));
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ id: alias.id, state: 'applied', name: 'db2', kind: 'component', rules: [] });
    expect((await aliases()).length).toBe(1);
    expect((await eventTypes()).map((e) => [e.type, e.details.pending ?? null])).toEqual([
      ['acl_alias.created', null],
      ['acl_alias.modified', false],
    ]);
  });

  it('a change of an alias a deployed rule uses is pending, lists the affected deployed rules, and deploys onto the alias', async () => {
    const alias = await createAlias();
    const deployed = await createRule('web', [alias.id], true);
    await createRule('draft', [alias.id], false);
    expect((await call('GET', `/api/v1/acl/alias/${alias.id}`)).json().rules).toEqual([{ id: deployed.id, name: 'web' }]);

    const res = await call('PUT', `/api/v1/acl/alias/${alias.id}`, aliasBody({ ports: ['6432'] }));
    const child = res.json();
    expect(child).toMatchObject({ parent_id: alias.id, state: 'changed', ports: ['6432'], rules: [{ id: deployed.id, name: 'web' }] });
    // Changing again (through the alias or its pending change) updates the same pending change.
    expect((await call('PUT', `/api/v1/acl/alias/${alias.id}`, aliasBody({ ports: ['7432'] }))).json().id).toBe(child.id);
    expect((await call('PUT', `/api/v1/acl/alias/${child.id}`, aliasBody({ ports: ['8432'] }))).json()).toMatchObject({
      id: child.id,
      ports: ['8432'],
    });
    expect((await aliases()).map((a) => [a.id, a.state, (a as { ports?: string[] }).ports])).toEqual([
      [alias.id, 'applied', ['5432']],
      [child.id, 'changed', ['8432']],
    ]);

    expect((await call('PUT', '/api/v1/acl/alias/apply', { aliases: [child.id] })).statusCode).toBe(204);
    expect(await aliases()).toEqual([expect.objectContaining({ id: alias.id, state: 'applied', ports: ['8432'] })]);
    const applied = (await eventTypes()).find((e) => e.type === 'acl_alias.applied');
    expect(applied).toMatchObject({ object_id: String(alias.id), details: { rules: [deployed.id] } });
  });

  it('discards pending alias changes (bulk or by DELETE); apply and discard take only pending changes, all or none', async () => {
    const a = await createAlias({ name: 'a' });
    const b = await createAlias({ name: 'b' });
    await createRule('uses both', [a.id, b.id], true);
    const ca = (await call('PUT', `/api/v1/acl/alias/${a.id}`, aliasBody({ name: 'a2' }))).json();
    const cb = (await call('PUT', `/api/v1/acl/alias/${b.id}`, aliasBody({ name: 'b2' }))).json();

    const refused = await call('PUT', '/api/v1/acl/alias/apply', { aliases: [ca.id, a.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('acl.not_pending');
    const missing = await call('PUT', '/api/v1/acl/alias/discard', { aliases: [ca.id, 999999] });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('acl.alias_not_found');
    expect((await aliases()).length).toBe(4);

    expect((await call('PUT', '/api/v1/acl/alias/discard', { aliases: [ca.id] })).statusCode).toBe(204);
    expect((await call('DELETE', `/api/v1/acl/alias/${cb.id}`)).statusCode).toBe(204);
    expect((await aliases()).map((x) => [x.name, x.state])).toEqual([
      ['a', 'applied'],
      ['b', 'applied'],
    ]);
    expect((await eventTypes()).filter((e) => e.type === 'acl_alias.discarded').map((e) => e.object_id)).toEqual([
      String(a.id),
      String(b.id),
    ]);
  });

  it('refuses to delete an alias any rule uses (pending or deployed), listing those rules; deletes it once unused', async () => {
    const alias = await createAlias();
    const deployed = await createRule('web', [alias.id], true);
    const draft = await createRule('draft', [alias.id], false);
    const refused = await call('DELETE', `/api/v1/acl/alias/${alias.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({
      status: 409,
      code: 'acl.alias_in_use',
      rules: [
        { id: deployed.id, name: 'web' },
        { id: draft.id, name: 'draft' },
      ],
    });
    // Removing it from the draft is not enough while the deployed rule uses it.
    await call('DELETE', `/api/v1/acl/rule/${draft.id}`);
    expect((await call('DELETE', `/api/v1/acl/alias/${alias.id}`)).json().rules).toEqual([{ id: deployed.id, name: 'web' }]);
    await call('DELETE', `/api/v1/acl/rule/${deployed.id}`);
    const pendingDeletion = (await call('GET', '/api/v1/acl/rule')).json().find((r: { state: string }) => r.state === 'deleted');
    await call('PUT', '/api/v1/acl/rule/apply', { rules: [pendingDeletion.id] });
    expect((await call('DELETE', `/api/v1/acl/alias/${alias.id}`)).statusCode).toBe(204);
    expect(await aliases()).toEqual([]);
    expect((await call('GET', `/api/v1/acl/alias/${alias.id}`)).json().code).toBe('acl.alias_not_found');
    expect((await eventTypes()).map((e) => e.type)).toContain('acl_alias.deleted');
  });

  it('refuses a component alias change that leaves a rule using it with ports and ICMP only', async () => {
    const alias = await createAlias({ kind: 'component', destinations: ['10.9.0.0/24'], ports: [], protocols: ['tcp'] });
    const res = await call('POST', '/api/v1/acl/rule', {
      name: 'ssh',
      all_locations: true,
      allow_all_users: true,
      ports: ['22'],
      aliases: [alias.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const broken = await call('PUT', `/api/v1/acl/alias/${alias.id}`, aliasBody({ kind: 'component', ports: [], protocols: ['icmp'] }));
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors).toEqual([
      expect.objectContaining({ path: 'protocols', code: 'acl.ports_need_tcp_udp', params: { rule: 'ssh' } }),
    ]);
    // As a destination alias it is a selector of its own: the rule's ports do not apply to it.
    expect(
      (await call('PUT', `/api/v1/acl/alias/${alias.id}`, aliasBody({ kind: 'destination', ports: [], protocols: ['icmp'] }))).statusCode,
    ).toBe(200);
  });

  it('a rule naming an alias and the alias deletion racing: the rule keeps its alias or is refused, never a 500', async () => {
    for (let i = 0; i < 8; i++) {
      const alias = await createAlias({ name: `race${i}` });
      const [created, deleted] = await Promise.all([
        call('POST', '/api/v1/acl/rule', { name: `r${i}`, all_locations: true, allow_all_users: true, aliases: [alias.id] }),
        call('DELETE', `/api/v1/acl/alias/${alias.id}`),
      ]);
      if (created.statusCode === 201) {
        expect(deleted.statusCode, deleted.body).toBe(409);
        expect((await call('GET', `/api/v1/acl/rule/${created.json().id}`)).json().aliases).toEqual([alias.id]);
      } else {
        expect(created.statusCode, created.body).toBe(400);
        expect(created.json().errors).toEqual([expect.objectContaining({ path: 'aliases', code: 'acl.alias_not_found' })]);
        expect(deleted.statusCode).toBe(204);
      }
    }
  });

  it('answers 400 with field codes for bad aliases, never a 500', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ destinations: [], ports: [], protocols: [] }, ['destinations:acl.alias_empty']],
      [{ kind: 'other' }, ['kind:invalid']],
      [{ name: '' }, ['name:required']],
      [{ destinations: ['10.0.0.1/99'] }, ['destinations.0:acl.destination']],
      [{ ports: ['70000'] }, ['ports.0:acl.port']],
      [{ ports: ['22'], protocols: ['icmp'] }, ['ports:acl.ports_need_tcp_udp']],
      [{ protocols: ['sctp'] }, ['protocols.0:acl.protocol']],
      [{ extra: 1 }, ['extra:unknown_field']],
    ];
    for (const [extra, expected] of cases) {
      const res = await call('POST', '/api/v1/acl/alias', aliasBody(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(
        (res.json().errors as { path: string; code: string }[]).map((e) => `${e.path}:${e.code}`),
        JSON.stringify(extra),
      ).toEqual(expected);
    }
    expect((await call('PUT', '/api/v1/acl/alias/99999', aliasBody())).statusCode).toBe(404);
    expect((await call('DELETE', '/api/v1/acl/alias/99999')).statusCode).toBe(404);
    expect((await call('PUT', '/api/v1/acl/alias/apply', { aliases: 'x' })).statusCode).toBe(400);
    expect(locationId).toBeGreaterThan(0);
  });
});
