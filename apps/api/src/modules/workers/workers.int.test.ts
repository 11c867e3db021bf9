import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authKeys, events, settings, workers, yubikeys } from '#src/db/schema/index.js';
import { sha256 } from '#src/lib/crypto.js';
import { freshSshPublicKey, GPG_FINGERPRINT, GPG_PUBLIC } from '#src/modules/auth-keys/auth-key-fixtures.test-support.js';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { WorkersService } from './workers.service.js';

const station = (token: string) => ({ authorization: `Worker ${token}` });

describe('YubiKey provisioning: /worker/* and /user/{username}/yubikey', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  let registration: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
    const res = await t.request('GET', '/api/v1/worker/token', { cookie: admin });
    expect(res.statusCode, res.body).toBe(200);
    registration = res.json().token;
  });
  afterAll(() => t.close());

  async function register(name: string, remoteAddress = '192.0.2.10'): Promise<{ id: number; token: string }> {
    const res = await t.request('POST', '/api/v1/worker/register', {
      headers: station(registration),
      payload: { name },
      remoteAddress,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function queue(worker: string, username: string): Promise<number> {
    const res = await t.request('POST', '/api/v1/worker/job', { cookie: admin, payload: { worker, username } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  }
  const poll = (token: string, wait_seconds = 0) =>
    t.request('POST', '/api/v1/worker/poll', { headers: station(token), payload: { wait_seconds } });
  const heartbeat = (token: string, id: number) =>
    t.request('POST', `/api/v1/worker/job/${id}/heartbeat`, { headers: station(token), payload: {} });
  const report = (token: string, id: number, payload: unknown) =>
    t.request('POST', `/api/v1/worker/job/${id}/result`, { headers: station(token), payload });
  const job = async (id: number) => (await t.request('GET', `/api/v1/worker/${id}`, { cookie: admin })).json();
  const eventsOf = (type: string) => t.database.db.select().from(events).where(eq(events.type, type));

  it('hands admins one registration token (the same on each read), recognisable by its prefix', async () => {
    expect(registration).toMatch(/^palr_[A-Za-z0-9_-]{43}$/);
    const again = await t.request('GET', '/api/v1/worker/token', { cookie: admin });
    expect(again.json()).toEqual({ token: registration });
  });

  it('registers a station with the registration token only; the station gets its own token, stored as a hash', async () => {
    for (const headers of [{}, station('palr_wrong'), { authorization: `Bearer ${registration}` }]) {
      const res = await t.request('POST', '/api/v1/worker/register', { headers, payload: { name: 'desk' } });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
    }
    const desk = await register('desk', '192.0.2.44');
    expect(desk.token).toMatch(/^palw_/);
    const [row] = await t.database.db.select().from(workers).where(eq(workers.id, desk.id));
    expect(row?.tokenHash).toBe(sha256(desk.token));
    expect(JSON.stringify(await t.database.db.execute(sql`select * from workers`))).not.toContain(desk.token);

    const list = await t.request('GET', '/api/v1/worker', { cookie: admin });
    expect(list.json()).toContainEqual(expect.objectContaining({ id: desk.id, name: 'desk', ip: '192.0.2.44', available: true }));
    expect((await eventsOf('worker.registered')).map((e) => e.objectName)).toContain('desk');

    // A restarted station registers again under its name: same worker, new token, the old one stops.
    const again = await register('DESK');
    expect(again.id).toBe(desk.id);
    expect((await poll(desk.token)).statusCode).toBe(401);
    expect((await poll(again.token)).statusCode).toBe(204);
  });

  it('station routes refuse sessions and unknown tokens; a poll with no job answers 204', async () => {
    const { token } = await register('front');
    expect((await t.request('POST', '/api/v1/worker/poll', { cookie: admin, payload: {} })).statusCode).toBe(401);
    expect((await poll('palw_unknown')).statusCode).toBe(401);
    expect((await report('palw_unknown', 1, { success: false, error: 'x' })).statusCode).toBe(401);
    expect((await poll(token)).statusCode).toBe(204);
  });

  it('a job succeeds: the card becomes the user’s YubiKey, its SSH and GPG keys their auth keys, and yubikey.provisioned names the admin', async () => {
    const { token } = await register('lab');
    // The station is already waiting when the job is queued: the long poll answers with it.
    const waiting = poll(token, 20);
    const id = await queue('lab', 'alice');
    const taken = await waiting;
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toEqual({
      id,
      username: 'alice',
      first_name: 'Test',
      last_name: 'alice',
      email: 'alice@example.com',
      // A quarter of the shorter of the heartbeat timeout (60 s) and the job deadline (300 s).
      heartbeat_seconds: 15,
    });
    expect(await job(id)).toMatchObject({ id, worker: 'lab', username: 'alice', state: 'in_progress' });
    // The station acknowledges the job (its first job heartbeat): it is taken.
    expect((await heartbeat(token, id)).statusCode).toBe(204);

    const ssh = freshSshPublicKey();
    const done = await report(token, id, { success: true, serial: '12345678', ssh_key: ssh, gpg_key: GPG_PUBLIC });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ id, state: 'success', serial: '12345678', finished_at: expect.any(String) });
    expect(await job(id)).toMatchObject({ state: 'success', serial: '12345678' });

    const keys = (await t.request('GET', '/api/v1/user/alice/yubikey', { cookie: alice })).json();
    expect(keys).toEqual([{ id: expect.any(Number), name: 'YubiKey 12345678', serial: '12345678', created_at: expect.any(String) }]);
    const authList = (await t.request('GET', '/api/v1/user/alice/auth_key', { cookie: alice })).json() as Record<string, unknown>[];
    expect(authList).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key_type: 'ssh', key: ssh.split(' ').slice(0, 2).join(' '), serial: '12345678' }),
        expect.objectContaining({ key_type: 'gpg', fingerprint: GPG_FINGERPRINT, serial: '12345678' }),
      ]),
    );
    const [provisioned] = await eventsOf('yubikey.provisioned');
    expect(provisioned).toMatchObject({ actorType: 'user', username: 'admin', objectType: 'yubikey', objectId: String(keys[0].id) });
    expect(provisioned?.details).toMatchObject({ username: 'alice', serial: '12345678', worker: 'lab', job_id: id });

    // The same report again (its answer was lost) is accepted and changes nothing.
    const repeated = await report(token, id, { success: true, serial: '12345678', ssh_key: ssh, gpg_key: GPG_PUBLIC });
    expect(repeated.statusCode, repeated.body).toBe(200);
    expect(repeated.json()).toEqual(done.json());
    expect(await eventsOf('yubikey.provisioned')).toHaveLength(1);
    expect((await t.request('GET', '/api/v1/user/alice/yubikey', { cookie: alice })).json()).toHaveLength(1);
    // A different result for a finished job is refused; the job stays a success.
    expect((await report(token, id, { success: false, error: 'late' })).json()).toMatchObject({
      status: 409,
      code: 'worker_job.finished',
      detail: 'The job is no longer in progress: it ended in success.',
    });
    expect((await heartbeat(token, id)).json()).toMatchObject({ status: 409, code: 'worker_job.finished' });
    // Another station cannot report this job.
    const other = await register('other');
    expect((await report(other.token, id, { success: false, error: 'x' })).statusCode).toBe(404);
  });

  it('a job fails: the station’s error text is stored and answered; keys the API refuses fail the job too', async () => {
    const { token } = await register('broken');
    const id = await queue('broken', 'bob');
    expect((await poll(token)).json()).toMatchObject({ id });
    const res = await report(token, id, { success: false, error: 'card not present' });
    expect(res.json()).toMatchObject({ state: 'error', error: 'card not present' });
    expect(await job(id)).toMatchObject({ state: 'error', error: 'card not present' });
    expect((await eventsOf('yubikey.provisioning_failed')).filter((e) => (e.details as { job_id?: number }).job_id === id)).toHaveLength(1);
    // Reported again: accepted, nothing changes (no second event).
    expect((await report(token, id, { success: false, error: 'card not present' })).json()).toMatchObject({
      state: 'error',
      error: 'card not present',
    });
    expect((await eventsOf('yubikey.provisioning_failed')).filter((e) => (e.details as { job_id?: number }).job_id === id)).toHaveLength(1);

    const bad = await queue('broken', 'bob');
    await poll(token);
    const refused = await report(token, bad, { success: true, serial: '999', ssh_key: 'ssh-ed25519 AAAA', gpg_key: GPG_PUBLIC });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ state: 'error', error: expect.stringMatching(/^The card's keys were refused/) });
    // The same report again answers the same job.
    const again = await report(token, bad, { success: true, serial: '999', ssh_key: 'ssh-ed25519 AAAA', gpg_key: GPG_PUBLIC });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(refused.json());
    expect(await t.database.db.select().from(yubikeys).where(eq(yubikeys.serial, '999'))).toEqual([]);
    expect(await t.database.db.select().from(authKeys).where(eq(authKeys.serial, '999'))).toEqual([]);
  });

  it('validates jobs: unknown station or user 404, unavailable station 409, bad bodies 400', async () => {
    await register('idle');
    expect(
      (await t.request('POST', '/api/v1/worker/job', { cookie: admin, payload: { worker: 'nope', username: 'alice' } })).json(),
    ).toMatchObject({ status: 404, code: 'worker.not_found' });
    expect(
      (await t.request('POST', '/api/v1/worker/job', { cookie: admin, payload: { worker: 'idle', username: 'nobody' } })).json(),
    ).toMatchObject({ status: 404, code: 'user.not_found' });
    expect((await t.request('POST', '/api/v1/worker/job', { cookie: admin, payload: { worker: 'idle' } })).statusCode).toBe(400);
    expect((await t.request('GET', '/api/v1/worker/999999', { cookie: admin })).json()).toMatchObject({ code: 'worker_job.not_found' });

    // Unavailable: no heartbeat within the timeout (60 s by default).
    await t.database.db
      .update(workers)
      .set({ lastSeenAt: new Date(Date.now() - 61_000) })
      .where(eq(workers.name, 'idle'));
    const list = (await t.request('GET', '/api/v1/worker', { cookie: admin })).json() as { name: string; available: boolean }[];
    expect(list.find((w) => w.name === 'idle')?.available).toBe(false);
    expect(
      (await t.request('POST', '/api/v1/worker/job', { cookie: admin, payload: { worker: 'idle', username: 'alice' } })).json(),
    ).toMatchObject({ status: 409, code: 'worker.unavailable' });
  });

  it('deletes a station: its token stops at once and its jobs go', async () => {
    const { id, token } = await register('gone');
    const jobId = await queue('gone', 'bob');
    const res = await t.request('DELETE', `/api/v1/worker/${id}`, { cookie: admin });
    expect(res.statusCode, res.body).toBe(204);
    expect((await poll(token)).statusCode).toBe(401);
    expect((await t.request('GET', `/api/v1/worker/${jobId}`, { cookie: admin })).statusCode).toBe(404);
    expect((await t.request('DELETE', `/api/v1/worker/${id}`, { cookie: admin })).json()).toMatchObject({ code: 'worker.not_found' });
    expect((await eventsOf('worker.deleted')).map((e) => e.objectId)).toContain(String(id));
  });

  it('YubiKeys: the owner and admins rename and delete them (with the card’s keys); others get 403', async () => {
    const [key] = await t.database.db.select().from(yubikeys).where(eq(yubikeys.serial, '12345678'));
    if (!key) throw new Error('the success test provisions 12345678 first');
    const url = `/api/v1/user/alice/yubikey/${key.id}`;
    expect((await t.request('POST', `${url}/rename`, { cookie: bob, payload: { name: 'mine' } })).statusCode).toBe(403);
    expect((await t.request('DELETE', url, { cookie: bob })).statusCode).toBe(403);
    expect(
      (await t.request('POST', `/api/v1/user/bob/yubikey/${key.id}/rename`, { cookie: bob, payload: { name: 'x' } })).json(),
    ).toMatchObject({
      status: 404,
      code: 'yubikey.not_found',
    });
    const renamed = await t.request('POST', `${url}/rename`, { cookie: alice, payload: { name: ' Blue key ' } });
    expect(renamed.json()).toMatchObject({ id: key.id, name: 'Blue key', serial: '12345678' });
    expect((await t.request('POST', `${url}/rename`, { cookie: admin, payload: { name: '' } })).statusCode).toBe(400);
    expect((await t.request('DELETE', url, { cookie: admin })).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/user/alice/yubikey', { cookie: alice })).json()).toEqual([]);
    expect(await t.database.db.select().from(authKeys).where(eq(authKeys.serial, '12345678'))).toEqual([]);
    expect((await eventsOf('yubikey.renamed')).length).toBe(1);
    expect((await eventsOf('yubikey.deleted')).some((e) => e.objectId === String(key.id))).toBe(true);
  });

  it('a card provisioned again replaces its old record and keys, whoever had it', async () => {
    const { token } = await register('reuse');
    const first = await queue('reuse', 'alice');
    await poll(token);
    await report(token, first, { success: true, serial: '555', ssh_key: freshSshPublicKey(), gpg_key: GPG_PUBLIC });
    const second = await queue('reuse', 'bob');
    await poll(token);
    expect(
      (await report(token, second, { success: true, serial: '555', ssh_key: freshSshPublicKey(), gpg_key: GPG_PUBLIC })).json(),
    ).toMatchObject({
      state: 'success',
    });
    expect((await t.request('GET', '/api/v1/user/alice/yubikey', { cookie: admin })).json()).toEqual([]);
    expect((await t.request('GET', '/api/v1/user/bob/yubikey', { cookie: admin })).json()).toMatchObject([{ serial: '555' }]);
    const cardKeys = await t.database.db.select().from(authKeys).where(eq(authKeys.serial, '555'));
    expect(cardKeys).toHaveLength(2);
  });

  it('a job is only taken when the station acknowledges it: an offer the station never received is offered again', async () => {
    const { token } = await register('lossy');
    const id = await queue('lossy', 'bob');
    // The answer to this poll is "lost": the station never acknowledges the job.
    expect((await poll(token)).json()).toMatchObject({ id });
    expect((await poll(token)).json()).toMatchObject({ id });
    expect((await heartbeat(token, id)).statusCode).toBe(204);
    // Acknowledged twice (a retried acknowledgement) is fine; another station's job is 404.
    expect((await heartbeat(token, id)).statusCode).toBe(204);
    const other = await register('lossy-other');
    expect((await heartbeat(other.token, id)).json()).toMatchObject({ status: 404, code: 'worker_job.not_found' });
    expect((await report(token, id, { success: false, error: 'no card' })).json()).toMatchObject({ state: 'error' });
  });

  it('a waiting poll whose client went away stops waiting and takes nothing', async () => {
    const service = new WorkersService(t.database.db, { heartbeatTimeoutMs: 60_000, jobDeadlineMs: 300_000 });
    const worker = await service.register(registration, 'abandoned', { ip: '192.0.2.9' });
    const row = await service.authenticate(worker.token);
    if (!row) throw new Error('no worker');
    const gone = new AbortController();
    const started = Date.now();
    const waiting = service.poll(row, '192.0.2.9', 25, gone.signal);
    gone.abort();
    expect(await waiting).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
    const id = await queue('abandoned', 'bob');
    expect((await poll(worker.token)).json()).toMatchObject({ id });
  });

  it('a station that polls again holds no job: a job it acknowledged and did not finish fails (it restarted)', async () => {
    const { token } = await register('restarting');
    const id = await queue('restarting', 'bob');
    await poll(token);
    expect((await heartbeat(token, id)).statusCode).toBe(204);
    expect((await poll(token)).statusCode).toBe(204);
    expect(await job(id)).toMatchObject({ state: 'error', error: 'The provisioning station restarted before it finished the job.' });
    expect((await report(token, id, { success: false, error: 'late' })).json()).toMatchObject({ status: 409, code: 'worker_job.finished' });
  });

  it('the deadline fails a job whose station gave no sign of life for it, as the system, and keeps one whose station beats', async () => {
    const service = new WorkersService(t.database.db, { heartbeatTimeoutMs: 60_000, jobDeadlineMs: 10_000 });
    const dead = await register('dead');
    const alive = await register('alive');
    const deadJob = await queue('dead', 'bob');
    const aliveJob = await queue('alive', 'bob');
    const waitingJob = await queue('dead', 'alice');
    await poll(dead.token);
    expect((await heartbeat(dead.token, deadJob)).statusCode).toBe(204);
    await poll(alive.token);
    expect((await heartbeat(alive.token, aliveJob)).statusCode).toBe(204);
    // 11 s later: the dead station said nothing since; the live one sent a heartbeat just now.
    const later = Date.now() + 11_000;
    await t.database.db
      .update(workers)
      .set({ lastSeenAt: new Date(later) })
      .where(eq(workers.id, alive.id));
    // (Jobs other tests left in progress on their stations fail too.)
    const expired = await service.expireOverdueJobs(later);
    expect(expired).toEqual(expect.arrayContaining([deadJob, waitingJob]));
    expect(expired).not.toContain(aliveJob);
    expect(await job(deadJob)).toMatchObject({ state: 'error', error: 'The provisioning station stopped answering.' });
    expect(await job(waitingJob)).toMatchObject({ state: 'error', error: 'The provisioning station stopped answering.' });
    expect(await job(aliveJob)).toMatchObject({ state: 'in_progress' });
    const [failed] = (await eventsOf('yubikey.provisioning_failed')).filter((e) => (e.details as { job_id?: number }).job_id === deadJob);
    expect(failed).toMatchObject({ actorType: 'system', objectType: 'worker', objectName: 'dead' });
    expect(failed?.details).toMatchObject({ username: 'bob', worker: 'dead', error: 'The provisioning station stopped answering.' });
    // Its station's late result: a clear 409, the job stays failed.
    const late = await report(dead.token, deadJob, { success: false, error: 'card not present' });
    expect(late.json()).toMatchObject({
      status: 409,
      code: 'worker_job.finished',
      detail: 'The job is no longer in progress: it ended in error (The provisioning station stopped answering.).',
    });
    expect(await service.expireOverdueJobs(later)).toEqual([]);
    expect((await report(alive.token, aliveJob, { success: false, error: 'done late' })).json()).toMatchObject({ state: 'error' });
  });

  it('a stopping API answers waiting polls at once (they do not hold up the shutdown)', async () => {
    const service = new WorkersService(t.database.db, { heartbeatTimeoutMs: 60_000, jobDeadlineMs: 300_000 });
    const worker = await service.register(registration, 'stopping', { ip: '192.0.2.9' });
    const row = await service.authenticate(worker.token);
    if (!row) throw new Error('no worker');
    const started = Date.now();
    const waiting = service.poll(row, '192.0.2.9', 25);
    service.signal.close();
    expect(await waiting).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('while the module is disabled stations hear 404 module.disabled (after their token check)', async () => {
    const { token } = await register('off');
    await t.database.db.update(settings).set({ workerEnabled: false });
    try {
      await expect.poll(async () => (await poll(token)).json().code, { timeout: 10_000 }).toBe('module.disabled');
      expect((await poll('palw_unknown')).statusCode).toBe(401);
      expect((await t.request('GET', '/api/v1/worker', { cookie: admin })).json()).toMatchObject({ code: 'module.disabled' });
    } finally {
      await t.database.db.update(settings).set({ workerEnabled: true });
    }
  });
});
