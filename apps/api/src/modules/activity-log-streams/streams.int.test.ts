import { ROUTE_ACCESS } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '#src/db/rows.js';
import { createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';
import { selfSignedCertificate } from './test-receiver.js';

const BASE = '/api/v1/activity_log_stream';
const PASSWORD = 'Stream-Secret-4711';

describe('activity log streams: CRUD', () => {
  let t: TestApp;
  let admin: string;
  const cert = selfSignedCertificate().cert;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    const allow = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: ['127.0.0.0/8'] } });
    expect(allow.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const post = (payload: unknown) => t.request('POST', BASE, { cookie: admin, payload });
  const put = (id: number, payload: unknown) => t.request('PUT', `${BASE}/${id}`, { cookie: admin, payload });
  const list = async () => (await t.request('GET', BASE, { cookie: admin })).json() as Record<string, unknown>[];
  const codes = (res: { json(): { errors?: { path: string; code: string }[] } }) =>
    (res.json().errors ?? []).map((e) => `${e.path}:${e.code}`);
  const body = (extra: Record<string, unknown> = {}) => ({
    kind: 'vector_http',
    name: 'SIEM',
    url: 'http://127.0.0.1:9/ingest?token=abc',
    username: 'palisade',
    password: PASSWORD,
    ...extra,
  });
  const row = async (id: number) =>
    (await queryRows<{ password_enc: string }>(t.database.db, sql`select password_enc from activity_log_streams where id = ${id}`))[0];
  const consumers = async () =>
    (await queryRows<{ name: string }>(t.database.db, sql`select name from event_consumers order by name`)).map((c) => c.name);
  const streamEvents = async () =>
    queryRows<{ type: string; object_id: string; details: Record<string, unknown>; username: string }>(
      t.database.db,
      sql`select type, object_id, details, username from events where starts_with(type, 'activity_log_stream.') order by id`,
    );

  it('marks all four routes enterprise-only in the permission table', () => {
    expect(
      Object.entries(ROUTE_ACCESS)
        .filter(([k]) => k.includes('/activity_log_stream'))
        .map(([k, r]) => [k, r.enterprise]),
    ).toEqual([
      ['GET /api/v1/activity_log_stream', true],
      ['POST /api/v1/activity_log_stream', true],
      ['PUT /api/v1/activity_log_stream/:id', true],
      ['DELETE /api/v1/activity_log_stream/:id', true],
    ]);
  });

  it('creates a destination: 201, the password write-only and sealed at rest, its consumer at the head', async () => {
    await t.newUser(admin, 'before'); // an event recorded before the destination exists
    const res = await post(body({ certificate: cert }));
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      kind: 'vector_http',
      name: 'SIEM',
      url: 'http://127.0.0.1:9/ingest?token=abc',
      username: 'palisade',
      has_password: true,
      certificate: `${cert.trim()}\n`,
      state: { lag: expect.any(Number) },
    });
    // Its own "created" event lies after its cursor, the history before it does not — except
    // what a transaction still running somewhere on the server at that moment keeps below the
    // snapshot horizon (ADR-005), so only "at least 1" holds whatever else runs.
    expect(created.state.lag).toBeGreaterThanOrEqual(1);
    expect(res.body).not.toContain(PASSWORD);
    expect((await row(created.id))?.password_enc).toMatch(/^v1\./);
    expect((await row(created.id))?.password_enc).not.toContain(PASSWORD);
    expect(await consumers()).toContain(`stream:${created.id}`);
    expect(await list()).toEqual([created]);
    const listed = await t.request('GET', BASE, { cookie: admin });
    expect(listed.body).not.toContain(PASSWORD);
  });

  it('updates: an absent password keeps it, a new one replaces it, an empty one clears it', async () => {
    const { id } = (await post(body())).json();
    const sealed = (await row(id))?.password_enc;
    const kept = await put(id, { kind: 'logstash_http', name: 'Logstash', url: 'http://127.0.0.2:8080/', username: 'ls' });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({
      id,
      kind: 'logstash_http',
      name: 'Logstash',
      url: 'http://127.0.0.2:8080/',
      username: 'ls',
      has_password: true,
      certificate: '',
    });
    expect((await row(id))?.password_enc).toBe(sealed);
    const replaced = await put(id, { ...body(), password: 'Other-Secret-1' });
    expect(replaced.json()).toMatchObject({ has_password: true });
    expect((await row(id))?.password_enc).not.toBe(sealed);
    const cleared = await put(id, { ...body(), password: '' });
    expect(cleared.json()).toMatchObject({ has_password: false });
    expect((await row(id))?.password_enc).toBe('');
  });

  it('deletes a destination and its consumer; 404 for unknown ids', async () => {
    const { id } = (await post(body())).json();
    expect((await t.request('DELETE', `${BASE}/${id}`, { cookie: admin })).statusCode).toBe(204);
    expect(await list()).toEqual([]);
    expect(await consumers()).not.toContain(`stream:${id}`);
    expect(problemOf(await t.request('DELETE', `${BASE}/${id}`, { cookie: admin }))).toMatchObject({
      status: 404,
      code: 'activity_log_stream.not_found',
    });
    expect(problemOf(await put(id, body()))).toMatchObject({ status: 404, code: 'activity_log_stream.not_found' });
  });

  it('records created, modified and deleted events with the admin as actor, never the password', async () => {
    const { id } = (await post(body())).json();
    await put(id, { ...body(), name: 'Renamed', password: 'Other-Secret-1' });
    await t.request('DELETE', `${BASE}/${id}`, { cookie: admin });
    const events = await streamEvents();
    expect(events.map((e) => [e.type, e.object_id, e.username])).toEqual([
      ['activity_log_stream.created', String(id), 'admin'],
      ['activity_log_stream.modified', String(id), 'admin'],
      ['activity_log_stream.deleted', String(id), 'admin'],
    ]);
    expect(events[0]?.details).toEqual({
      kind: 'vector_http',
      url: 'http://127.0.0.1:9/ingest',
      username: 'palisade',
      has_certificate: false,
    });
    expect(events[1]?.details).toMatchObject({ changed: ['name', 'password'] });
    const all = JSON.stringify(await queryRows(t.database.db, sql`select * from events`));
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain('Other-Secret-1');
    expect(all).not.toContain('token=abc');
  });

  it('refuses bad certificates, blocked and malformed URLs and bad kinds with field errors, writing nothing', async () => {
    expect(codes(await post(body({ certificate: 'not a certificate' })))).toEqual(['certificate:certificate.pem']);
    const garbled = cert.replace(/\n[A-Za-z0-9+/]{10}/, '\nAAAAAAAAAA');
    expect(codes(await post(body({ certificate: garbled })))).toEqual(['certificate:certificate.pem']);
    expect(codes(await post(body({ certificate: `${cert}\ntrailing junk` })))).toEqual(['certificate:certificate.pem']);
    expect(codes(await post(body({ url: 'javascript:alert(1)' })))).toEqual(['url:url.invalid']);
    expect(codes(await post(body({ url: 'http://user:pw@example.com/' })))).toEqual(['url:url.credentials']);
    expect(codes(await post(body({ kind: 'splunk' })))).toEqual(['kind:invalid']);
    expect(codes(await post({ name: 'x', url: 'http://127.0.0.1/' }))).toEqual(['kind:required']);
    // Outside the allow-list: loopback and link-local are refused on save.
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: [] } });
    for (const url of ['http://127.0.0.1:9/', 'http://169.254.169.254/latest/', 'http://[::1]/']) {
      const res = await post(body({ url }));
      expect(problemOf(res)).toMatchObject({ status: 400, code: 'validation.failed' });
      expect(codes(res)).toEqual(['url:url.blocked']);
    }
    expect(await list()).toEqual([]);
    expect(await consumers()).toEqual([]);
  });

  it('checks the URL against the allow-list on update too', async () => {
    const { id } = (await post(body())).json();
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: [] } });
    const res = await put(id, body({ url: 'http://10.0.0.1/' }));
    expect(codes(res)).toEqual(['url:url.blocked']);
    expect((await list())[0]).toMatchObject({ url: 'http://127.0.0.1:9/ingest?token=abc' });
  });
});
