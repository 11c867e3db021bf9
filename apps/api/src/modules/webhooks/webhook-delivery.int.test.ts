import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobRunner } from '#src/jobs/jobs.js';
import { makeWebhooksJob, type WebhookJobOptions } from '#src/jobs/webhook-delivery.js';
import { SecretBox } from '#src/lib/crypto.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { startReceiver, type TestReceiver, until } from './test-receiver.js';

const SECRET_KEY = 'webhook-delivery-test-key-0123456789abcdef';
const TOKEN = `whsec_${Buffer.from('a 32-byte key for webhook tests!').toString('base64')}`;
/** Short times instead of 5 s / 10 s: nothing in these tests sleeps for the real backoff. */
/**
 * Short backoff and idle wait. The request timeout stays generous: on a busy machine the local
 * receiver can take longer than a short timeout to answer, and a timed-out attempt that the receiver
 * did get is sent again (at least once, by design), which tests counting deliveries would see.
 */
const FAST: WebhookJobOptions = { policy: { backoffBaseMs: 20, backoffMaxMs: 50, timeoutMs: 5_000 }, idleMs: 100 };

interface Attempt {
  attempt: number;
  status_code?: number;
  outcome: string;
  error?: string;
  response_excerpt?: string;
  event_type: string;
  delivery_id: number;
}

describe('webhook delivery', () => {
  let t: TestApp;
  let admin: string;
  let receiver: TestReceiver;
  let runners: JobRunner[] = [];
  beforeAll(async () => {
    t = await createTestApp({ SECRET_KEY });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    await t.database.db.execute(sql`delete from event_consumers`);
    await new SettingsRepo(t.database.db).update({ egressAllowCidrs: ['127.0.0.0/8'] });
    admin = await t.loginAdmin();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    runners = [];
    await receiver.close();
  });
  afterAll(() => t.close());

  /** Starts the webhook job as one API process would (`owner` tells replicas apart). */
  const startJobs = async (options: WebhookJobOptions = FAST, owner = 'test-owner') => {
    const runner = new JobRunner(
      {
        database: t.database,
        services: t.app.services,
        secrets: SecretBox.fromSecret(SECRET_KEY),
        signal: t.app.eventSignal,
        log: t.app.log,
        owner,
      },
      [makeWebhooksJob(options)],
    );
    runners.push(runner);
    runner.start();
    // The fan-out starts at the head: wait until its cursor exists before making changes.
    await until(async () => {
      const r = (await t.database.db.execute(sql`select 1 from event_consumers where name = 'webhooks'`)) as unknown as { rows: unknown[] };
      return r.rows.length > 0;
    });
  };
  const createWebhook = async (extra: Record<string, unknown> = {}) => {
    const res = await t.request('POST', '/api/v1/webhook', {
      cookie: admin,
      payload: { url: receiver.url, token: TOKEN, triggers: ['user.created', 'user.modified', 'user.deleted'], ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number };
  };
  const rows = async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
    ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  /** Whether the fan-out's cursor has passed every event recorded so far. */
  const fannedOut = async () => {
    const [row] = await rows<{ done: boolean }>(
      sql`select coalesce((select c.cursor_id >= max(e.id) from event_consumers c, events e where c.name = 'webhooks' group by c.cursor_id), false) as done`,
    );
    return row?.done === true;
  };
  const log = async (id: number): Promise<Attempt[]> =>
    (await t.request('GET', `/api/v1/webhook/${id}/deliveries`, { cookie: admin })).json();

  it('delivers a signed user.created that standardwebhooks verifies, with the user in the body', async () => {
    await startJobs();
    const { id } = await createWebhook();
    const user = await t.newUser(admin, 'alice');
    await until(() => receiver.received.length >= 1, 10_000, 'a delivery');
    const [request] = receiver.received;
    if (!request) throw new Error('nothing received');
    const verified = new Webhook(TOKEN).verify(request.body, request.headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toMatchObject({
      id: expect.any(Number),
      type: 'user.created',
      timestamp: expect.stringMatching(/Z$/),
      data: {
        actor: { type: 'user', username: 'admin' },
        object: { type: 'user', name: 'alice' },
        user: { ...user, created_at: expect.any(String) },
      },
    });
    expect(Object.keys(JSON.parse(request.body))).toEqual(['id', 'type', 'timestamp', 'data']);
    expect(request.headers['webhook-id']).toBe(`msg_${verified.id}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^Palisade-Webhooks\//);
    await until(async () => (await log(id)).length === 1, 5_000, 'the log row');
    expect((await log(id))[0]).toMatchObject({ attempt: 1, status_code: 204, outcome: 'delivered', event_type: 'user.created' });
    // Only subscribed types go out: group events are no trigger.
    expect(receiver.received.every((r) => JSON.parse(r.body).type.startsWith('user.'))).toBe(true);
  });

  it('a plain token signs with its bytes (verified in raw format)', async () => {
    await startJobs();
    await createWebhook({ token: 'plain-shared-secret' });
    await t.newUser(admin, 'bob');
    await until(() => receiver.received.length >= 1);
    const [request] = receiver.received;
    expect(() =>
      new Webhook('plain-shared-secret', { format: 'raw' }).verify(request?.body ?? '', request?.headers as Record<string, string>),
    ).not.toThrow();
  });

  it('retries on 500 with the same webhook-id, then succeeds', async () => {
    receiver.answer = (_r, i) => (i < 2 ? { status: 500, body: 'try later' } : { status: 200, body: 'ok' });
    await startJobs();
    const { id } = await createWebhook();
    await t.newUser(admin, 'carol');
    await until(async () => (await log(id)).some((a) => a.outcome === 'delivered'), 10_000, 'delivered');
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const attempts = (await log(id)).reverse();
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 500, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    expect(attempts[0]?.response_excerpt).toBe('try later');
    expect((await t.request('GET', `/api/v1/webhook/${id}`, { cookie: admin })).json()).toMatchObject({
      last_status: 'delivered',
      last_attempt_at: expect.any(String),
    });
  });

  it('honours Retry-After on a 429 instead of the (here 20 ms) backoff', async () => {
    receiver.answer = (_r, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 204 });
    await startJobs();
    const { id } = await createWebhook();
    await t.newUser(admin, 'ivan');
    await until(async () => (await log(id)).some((a) => a.outcome === 'delivered'), 10_000, 'delivered after Retry-After');
    const [first, second] = receiver.received;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect((await log(id)).reverse().map((a) => [a.status_code, a.outcome])).toEqual([
      [429, 'retrying'],
      [204, 'delivered'],
    ]);
  });

  it('does not retry a 400', async () => {
    receiver.answer = () => ({ status: 400, body: 'bad' });
    await startJobs();
    const { id } = await createWebhook();
    await t.newUser(admin, 'dave');
    await until(async () => (await log(id)).length === 1, 5_000, 'one attempt');
    // Another event after it is delivered and logged: had the first been retried it would show up first.
    receiver.answer = () => ({ status: 204 });
    await t.newUser(admin, 'erin');
    await until(async () => (await log(id)).length === 2, 5_000, 'the second event');
    const attempts = (await log(id)).reverse();
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
      [1, 400, 'failed'],
      [1, 204, 'delivered'],
    ]);
    expect(receiver.received).toHaveLength(2);
  });

  it('times out on a receiver that hangs, and retries', async () => {
    receiver.answer = (_r, i) => (i === 0 ? 'hang' : { status: 204 });
    await startJobs({ ...FAST, policy: { ...FAST.policy, timeoutMs: 400 } });
    const { id } = await createWebhook();
    await t.newUser(admin, 'frank');
    await until(async () => (await log(id)).some((a) => a.outcome === 'delivered'), 10_000, 'delivered after the timeout');
    const attempts = (await log(id)).reverse();
    expect(attempts[0]).toMatchObject({ attempt: 1, outcome: 'retrying', error: expect.stringMatching(/^timeout/) });
    expect(attempts[0]?.status_code).toBeUndefined();
    // On a busy machine a later answer may also miss the short timeout: the last attempt delivers.
    expect(attempts.at(-1)).toMatchObject({ outcome: 'delivered' });
  });

  it('a URL that became blocked fails at send time with a logged attempt, and nothing is sent', async () => {
    await startJobs();
    const { id } = await createWebhook();
    await new SettingsRepo(t.database.db).update({ egressAllowCidrs: [] });
    await t.newUser(admin, 'gina');
    await until(async () => (await log(id)).length === 1, 8_000, 'the refused attempt');
    expect((await log(id))[0]).toMatchObject({ attempt: 1, outcome: 'failed', error: expect.stringMatching(/^blocked: .*loopback/) });
    expect(receiver.received).toHaveLength(0);
  });

  it('sends a test event to that webhook only; redeliver sends the same webhook-id again', async () => {
    await startJobs();
    const { id } = await createWebhook({ enabled: false });
    const other = await startReceiver();
    try {
      await createWebhook({ url: other.url });
      const res = await t.request('POST', `/api/v1/webhook/${id}/test`, { cookie: admin });
      expect(res.statusCode).toBe(202);
      await until(() => receiver.received.length === 1, 5_000, 'the test event');
      const first = receiver.received[0];
      expect(JSON.parse(first?.body ?? '{}')).toMatchObject({ type: 'webhook.test_sent', data: { details: { test: true } } });
      const [attempt] = await until(async () => (await log(id)).length === 1).then(() => log(id));
      const again = await t.request('POST', `/api/v1/webhook/${id}/deliveries/${attempt?.delivery_id}/redeliver`, { cookie: admin });
      expect(again.statusCode).toBe(202);
      await until(() => receiver.received.length === 2, 5_000, 'the redelivery');
      expect(receiver.received[1]?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
      await until(async () => (await log(id)).length === 2);
      expect((await log(id)).map((a) => [a.attempt, a.outcome])).toEqual([
        [1, 'delivered'],
        [1, 'delivered'],
      ]);
      expect(other.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('disabling a webhook stops its pending deliveries; a deleted one sends nothing', async () => {
    receiver.answer = () => ({ status: 503 });
    await startJobs({ ...FAST, policy: { ...FAST.policy, backoffBaseMs: 60_000, backoffMaxMs: 60_000 }, random: () => 1 });
    const { id } = await createWebhook();
    await t.newUser(admin, 'hank');
    await until(async () => (await log(id)).length === 1, 5_000, 'the first attempt');
    expect((await t.request('POST', `/api/v1/webhook/${id}`, { cookie: admin, payload: { enabled: false } })).statusCode).toBe(200);
    expect(await rows(sql`select status from webhook_deliveries where webhook_id = ${id}`)).toEqual([{ status: 'failed' }]);
    // While disabled nothing new is queued for it.
    await t.newUser(admin, 'hilda');
    await until(fannedOut, 5_000, 'the fan-out past the new event');
    expect(await rows(sql`select id from webhook_deliveries where webhook_id = ${id}`)).toHaveLength(1);

    // A deleted webhook takes its waiting deliveries with it: nothing more is sent.
    const other = await createWebhook();
    await t.newUser(admin, 'hugo');
    await until(async () => (await log(other.id)).length === 1, 5_000, 'the first attempt to the other webhook');
    const sent = receiver.received.length;
    expect(await rows(sql`select status from webhook_deliveries where webhook_id = ${other.id}`)).toEqual([{ status: 'pending' }]);
    expect((await t.request('DELETE', `/api/v1/webhook/${other.id}`, { cookie: admin })).statusCode).toBe(204);
    expect(await rows(sql`select id from webhook_deliveries where webhook_id = ${other.id}`)).toEqual([]);
    expect(receiver.received).toHaveLength(sent);
  });

  it('queues nothing while the webhooks module is off', async () => {
    await startJobs();
    const { id } = await createWebhook();
    await new SettingsRepo(t.database.db).update({ webhooksEnabled: false });
    await t.newUser(admin, 'otto');
    await until(fannedOut, 5_000, 'the fan-out past the event');
    expect(await rows(sql`select id from webhook_deliveries where webhook_id = ${id}`)).toEqual([]);
    await new SettingsRepo(t.database.db).update({ webhooksEnabled: true });
    await t.newUser(admin, 'olga');
    await until(() => receiver.received.length === 1, 5_000, 'the event after the module is back');
    expect(JSON.parse(receiver.received[0]?.body ?? '{}').data.user.username).toBe('olga');
  });

  it('two processes share the work: every event is sent once', async () => {
    await startJobs(FAST, 'replica-a');
    await startJobs(FAST, 'replica-b');
    const { id } = await createWebhook({ triggers: ['user.modified'] });
    await t.database.db.execute(
      sql`insert into events (actor_type, module, type, object_type, object_id, object_name)
          select 'system', 'users', 'user.modified', 'user', '999999', 'ghost' || g from generate_series(1, 200) g`,
    );
    await until(() => receiver.received.length >= 200, 15_000, '200 deliveries');
    await until(
      async () => (await rows(sql`select id from webhook_deliveries where webhook_id = ${id} and status = 'delivered'`)).length === 200,
      5_000,
      'all marked delivered',
    );
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(200);
    expect(receiver.received).toHaveLength(200);
  });

  it('a fan-out whose consumer row was deleted starts again from the head', async () => {
    await startJobs();
    await createWebhook();
    await t.database.db.execute(sql`delete from event_consumers where name = 'webhooks'`);
    await until(
      async () => (await rows(sql`select 1 from event_consumers where name = 'webhooks'`)).length === 1,
      10_000,
      'the consumer again',
    );
    await t.newUser(admin, 'rita');
    await until(() => receiver.received.length === 1, 10_000, 'the event after');
  });

  it('keeps the last 100 attempts per webhook', async () => {
    receiver.answer = () => ({ status: 410 });
    await startJobs({ ...FAST, policy: { ...FAST.policy, concurrency: 8 } });
    const { id } = await createWebhook();
    // 105 events in one go (the same SQL the services run): each is one attempt (410 is not retried).
    await t.database.db.execute(
      sql`insert into events (actor_type, module, type, object_type, object_id, object_name)
          select 'system', 'users', 'user.modified', 'user', '999999', 'ghost' || g from generate_series(1, 105) g`,
    );
    await until(() => receiver.received.length === 105, 15_000, '105 deliveries');
    await until(
      async () => {
        const r = (await t.database.db.execute(
          sql`select count(*)::int as n from webhook_deliveries where status = 'failed'`,
        )) as unknown as {
          rows: { n: number }[];
        };
        return r.rows[0]?.n === 105;
      },
      5_000,
      'all attempts written',
    );
    const kept = (await t.database.db.execute(
      sql`select count(*)::int as n from webhook_attempts where webhook_id = ${id}`,
    )) as unknown as {
      rows: { n: number }[];
    };
    expect(kept.rows[0]?.n).toBe(100);
    const shown = await log(id);
    expect(shown).toHaveLength(100);
    const ids = shown.map((a) => (a as Attempt & { id: number }).id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});
