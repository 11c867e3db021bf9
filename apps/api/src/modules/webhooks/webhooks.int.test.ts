import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';

const URL_OK = 'http://127.0.0.1:9/hook';

describe('webhooks CRUD', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    await new SettingsRepo(t.database.db).update({ egressAllowCidrs: ['127.0.0.0/8'] });
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const as = (cookie: string) => ({
    get: (url: string) => t.request('GET', url, { cookie }),
    post: (url: string, payload?: unknown) => t.request('POST', url, { cookie, payload }),
    put: (url: string, payload: unknown) => t.request('PUT', url, { cookie, payload }),
    del: (url: string) => t.request('DELETE', url, { cookie }),
  });
  const fieldErrors = (res: { json(): { errors?: { path: string; code: string; message: string }[] } }) =>
    (res.json().errors ?? []).map((e) => ({ path: e.path, code: e.code, message: e.message }));
  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await as(admin).post('/api/v1/webhook', { url: URL_OK, token: 'secret-token', triggers: ['user.created'], ...extra });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number };
  };
  const eventTypes = async () =>
    (
      (await t.database.db.execute(sql`select type, object_id, details from events where module = 'webhooks' order by id`)) as unknown as {
        rows: { type: string; object_id: string; details: Record<string, unknown> }[];
      }
    ).rows;

  it('creates, lists, reads, updates, enables/disables and deletes, recording an event for each change', async () => {
    const created = await as(admin).post('/api/v1/webhook', {
      url: URL_OK,
      description: 'HR system',
      token: 'secret-token',
      triggers: ['user.created', 'user.deleted'],
    });
    expect(created.statusCode).toBe(201);
    const hook = created.json();
    expect(hook).toEqual({
      id: expect.any(Number),
      url: URL_OK,
      description: 'HR system',
      triggers: ['user.created', 'user.deleted'],
      enabled: true,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(hook)).not.toContain('secret-token');
    expect((await as(admin).get('/api/v1/webhook')).json()).toEqual([hook]);
    expect((await as(admin).get(`/api/v1/webhook/${hook.id}`)).json()).toEqual(hook);

    const updated = await as(admin).put(`/api/v1/webhook/${hook.id}`, { url: `${URL_OK}2`, triggers: ['user.modified'], enabled: true });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ url: `${URL_OK}2`, description: '', triggers: ['user.modified'], enabled: true });

    const off = await as(admin).post(`/api/v1/webhook/${hook.id}`, { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().enabled).toBe(false);
    expect((await as(admin).post(`/api/v1/webhook/${hook.id}`, { enabled: true })).json().enabled).toBe(true);

    expect((await as(admin).del(`/api/v1/webhook/${hook.id}`)).statusCode).toBe(204);
    expect((await as(admin).get(`/api/v1/webhook/${hook.id}`)).json().code).toBe('webhook.not_found');
    expect((await as(admin).del(`/api/v1/webhook/${hook.id}`)).statusCode).toBe(404);

    const recorded = await eventTypes();
    expect(recorded.map((e) => e.type)).toEqual([
      'webhook.created',
      'webhook.modified',
      'webhook.disabled',
      'webhook.enabled',
      'webhook.deleted',
    ]);
    expect(recorded.every((e) => e.object_id === String(hook.id))).toBe(true);
    expect(recorded[1]?.details).toMatchObject({ changed: ['url', 'description', 'triggers'] });
    expect(JSON.stringify(recorded)).not.toContain('secret-token');
  });

  it('seals the token at rest and keeps it when an update leaves it out', async () => {
    const { id } = await create();
    const stored = async () =>
      ((await t.database.db.execute(sql`select token_enc from webhooks where id = ${id}`)) as unknown as { rows: { token_enc: string }[] })
        .rows[0]?.token_enc;
    const first = await stored();
    expect(first).toMatch(/^v1\./);
    expect(first).not.toContain('secret-token');
    await as(admin).put(`/api/v1/webhook/${id}`, { url: URL_OK, triggers: ['user.created'] });
    expect(await stored()).toBe(first);
    await as(admin).put(`/api/v1/webhook/${id}`, { url: URL_OK, triggers: ['user.created'], token: 'new' });
    expect(await stored()).not.toBe(first);
  });

  it('validates per spec §5: URL required and valid, at least one trigger, token required on create', async () => {
    const res = await as(admin).post('/api/v1/webhook', { triggers: [] });
    expect(res.statusCode).toBe(400);
    expect(fieldErrors(res)).toEqual(
      expect.arrayContaining([
        { path: 'url', code: 'required', message: 'Field required' },
        { path: 'triggers', code: 'webhook.trigger_required', message: 'Select at least one trigger' },
        { path: 'token', code: 'required', message: 'Field required' },
      ]),
    );
    const unknownTrigger = await as(admin).post('/api/v1/webhook', { url: URL_OK, token: 'x', triggers: ['group.created'] });
    expect(unknownTrigger.statusCode).toBe(400);
    expect(fieldErrors(unknownTrigger)[0]?.path).toBe('triggers.0');
  });

  it.each([
    ['javascript:', 'javascript:alert(1)', 'url.invalid'],
    ['file:', 'file:///etc/passwd', 'url.invalid'],
    ['ftp:', 'ftp://127.0.0.1/x', 'url.invalid'],
    ['10 KiB long', `http://127.0.0.1/${'a'.repeat(10 * 1024)}`, 'max_length'],
    ['with credentials', 'http://user:pass@127.0.0.1/hook', 'url.credentials'],
  ])('refuses a URL %s with a 400 and a clear message', async (_name, url, code) => {
    const res = await as(admin).post('/api/v1/webhook', { url, token: 'x', triggers: ['user.created'] });
    expect(res.statusCode).toBe(400);
    const [error] = fieldErrors(res);
    expect(error).toMatchObject({ path: 'url', code });
    expect(error?.message.length).toBeGreaterThan(5);
    expect((await as(admin).get('/api/v1/webhook')).json()).toEqual([]);
  });

  it('refuses a loopback or link-local URL on save unless the allow-list holds it (400 url.blocked)', async () => {
    const { id } = await create();
    await new SettingsRepo(t.database.db).update({ egressAllowCidrs: [] });
    for (const url of ['http://127.0.0.1/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://10.0.0.1/']) {
      const res = await as(admin).post('/api/v1/webhook', { url, token: 'x', triggers: ['user.created'] });
      expect(res.statusCode, url).toBe(400);
      expect(fieldErrors(res), url).toEqual([{ path: 'url', code: 'url.blocked', message: expect.stringContaining('allow-list') }]);
    }
    const update = await as(admin).put(`/api/v1/webhook/${id}`, { url: URL_OK, triggers: ['user.created'] });
    expect(update.statusCode).toBe(400);
    expect(fieldErrors(update)[0]?.code).toBe('url.blocked');
    expect((await as(admin).get('/api/v1/webhook')).json()).toHaveLength(1);
  });

  it('says a host name that does not resolve is not an address to allow (400 url.unresolvable)', async () => {
    const res = await as(admin).post('/api/v1/webhook', {
      url: 'http://palisade-test.invalid/hook',
      token: 'x',
      triggers: ['user.created'],
    });
    expect(res.statusCode).toBe(400);
    expect(fieldErrors(res)).toEqual([{ path: 'url', code: 'url.unresolvable', message: 'The host name could not be resolved' }]);
    const stream = await as(admin).post('/api/v1/activity_log_stream', {
      kind: 'vector_http',
      name: 'siem',
      url: 'http://palisade-test.invalid/',
    });
    expect(stream.statusCode).toBe(400);
    expect(fieldErrors(stream)[0]?.code).toBe('url.unresolvable');
    expect((await as(admin).get('/api/v1/webhook')).json()).toEqual([]);
  });

  it('answers 404 for unknown webhooks and deliveries', async () => {
    expect((await as(admin).get('/api/v1/webhook/999')).json().code).toBe('webhook.not_found');
    expect((await as(admin).get('/api/v1/webhook/999/deliveries')).statusCode).toBe(404);
    expect((await as(admin).post('/api/v1/webhook/999/test')).statusCode).toBe(404);
    const { id } = await create();
    const res = await as(admin).post(`/api/v1/webhook/${id}/deliveries/12345/redeliver`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('webhook.delivery_not_found');
  });

  it('queues a test event to that webhook only, and a redelivery resets the delivery', async () => {
    const { id } = await create({ enabled: false });
    const other = await create();
    const res = await as(admin).post(`/api/v1/webhook/${id}/test`);
    expect(res.statusCode).toBe(202);
    const { delivery_id } = res.json();
    const rows = (
      (await t.database.db.execute(sql`select webhook_id, event_type, status, payload from webhook_deliveries order by id`)) as unknown as {
        rows: { webhook_id: number; event_type: string; status: string; payload: Record<string, unknown> }[];
      }
    ).rows;
    expect(rows).toEqual([
      {
        webhook_id: id,
        event_type: 'webhook.test_sent',
        status: 'pending',
        payload: expect.objectContaining({ type: 'webhook.test_sent', data: expect.objectContaining({ details: { test: true } }) }),
      },
    ]);
    expect(rows.some((r) => r.webhook_id === other.id)).toBe(false);
    await t.database.db.execute(sql`update webhook_deliveries set status = 'failed', attempts = 3 where id = ${delivery_id}`);
    const again = await as(admin).post(`/api/v1/webhook/${id}/deliveries/${delivery_id}/redeliver`);
    expect(again.statusCode).toBe(202);
    const [row] = (
      (await t.database.db.execute(sql`select status, attempts from webhook_deliveries where id = ${delivery_id}`)) as unknown as {
        rows: { status: string; attempts: number }[];
      }
    ).rows;
    expect(row).toEqual({ status: 'pending', attempts: 0 });
    // Another webhook's delivery id is not found under this one.
    expect((await as(admin).post(`/api/v1/webhook/${other.id}/deliveries/${delivery_id}/redeliver`)).statusCode).toBe(404);
  });
});
