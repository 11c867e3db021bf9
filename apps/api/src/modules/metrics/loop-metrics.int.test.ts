import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import { TestReceiver } from '#src/modules/activity-log-streams/test-receiver.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { startReceiver, type TestReceiver as WebhookReceiver } from '#src/modules/webhooks/test-receiver.js';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';
import { parseExposition, type Sample } from './exposition.js';

const TOKEN = 'loop-metrics-test-token-0123456789';
const WEBHOOK_TOKEN = `whsec_${Buffer.from('a 32-byte key for webhook tests!').toString('base64')}`;

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('job metrics of the event and mail loops', () => {
  let t: TestApp;
  let webhooks: WebhookReceiver;
  let stream: TestReceiver;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN }, { jobs: true });
    webhooks = await startReceiver();
    stream = new TestReceiver();
    await stream.up();
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await t.close();
    await webhooks.close();
    await stream.down();
    await smtp.close();
  });

  const scrape = async (): Promise<Sample[]> => {
    const res = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return parseExposition(res.body);
  };
  const rounds = (samples: Sample[], job: string): number =>
    samples.find((s) => s.name === 'palisade_job_round_duration_seconds_count' && s.labels.job === job)?.value ?? 0;

  it('records one duration per batch of the webhook fan-out and delivery, the activity-log stream and the mail queue', async () => {
    const admin = await t.loginAdmin();
    await new SettingsRepo(t.database.db).update({
      egressAllowCidrs: ['127.0.0.0/8'],
      smtpServer: '127.0.0.1',
      smtpPort: smtp.port,
      smtpEncryption: 'none',
      smtpSender: 'vpn@example.com',
    });
    // The fan-out starts at the head: wait for its cursor before anything happens.
    await until(async () => {
      const r = (await t.database.db.execute(sql`select 1 from event_consumers where name = 'webhooks'`)) as unknown as { rows: unknown[] };
      return r.rows.length > 0;
    }, 'the webhook consumer');
    // The fan-out may already have handled a batch (the sign-in's event): compare with this.
    const before = await scrape();
    const jobs = ['webhook-fanout', 'webhook-delivery', 'activity-log-streams', 'mail'];
    expect(rounds(before, 'mail')).toBe(0);

    const hook = await t.request('POST', '/api/v1/webhook', {
      cookie: admin,
      payload: { url: webhooks.url, token: WEBHOOK_TOKEN, triggers: ['user.created'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const dest = await t.request('POST', '/api/v1/activity_log_stream', {
      cookie: admin,
      payload: { kind: 'vector_http', name: 'SIEM', url: stream.url },
    });
    expect(dest.statusCode, dest.body).toBe(201);
    await t.newUser(admin, 'loop-metrics-user');
    await t.database.db.transaction(async (tx) => {
      await t.app.services.mail.enqueue(tx as unknown as Db, {
        to: 'someone@example.com',
        template: 'mfa_email_code',
        data: { code: '123456' },
      });
    });

    await until(async () => webhooks.received.length >= 1 && stream.batches.length >= 1 && smtp.received.length >= 1, 'the deliveries');
    await until(async () => {
      const now = await scrape();
      return jobs.every((job) => rounds(now, job) > rounds(before, job));
    }, 'a duration for every loop');
    const after = await scrape();
    // One mail, one batch: the idle polls before and after it record nothing.
    expect(rounds(after, 'mail')).toBe(1);
    // Every stream observation is a batch the destination got (all answered 2xx here).
    expect(rounds(after, 'activity-log-streams')).toBeLessThanOrEqual(stream.batches.length);
    const sum = after.find((s) => s.name === 'palisade_job_round_duration_seconds_sum' && s.labels.job === 'webhook-fanout');
    expect(sum?.value).toBeGreaterThan(0);
  });
});
