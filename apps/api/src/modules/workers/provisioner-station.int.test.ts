import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, settings, workerJobs } from '#src/db/schema/index.js';
import { startReceiver, type TestReceiver, until } from '#src/modules/webhooks/test-receiver.js';
import { childEnv } from '#test/child-env.js';
import { createTestApp, type TestApp } from '#test/helpers.js';

/**
 * A station test starts a Node process, waits for it to register (up to 30 s), runs a job with
 * real gpg (up to 60 s): the default 30 s test budget is shorter than its own waits on a busy host.
 */
const STATION_TEST_MS = 120_000;
const STATION = fileURLToPath(new URL('../../../../provisioner/bin/palisade-provisioner.mjs', import.meta.url));

/** The job deadline of this file's API: short, so a dead station's job fails within the test. */
const DEADLINE_SECONDS = 5;

/**
 * What a fault-injecting proxy does with one request: pass it on, answer it itself, or pass it on
 * and then cut the connection instead of answering (the answer is lost on its way to the station).
 */
type Fault = 'pass' | 'lose_answer' | 'lose_job_answer' | 'answer_503';

/**
 * A proxy on 127.0.0.1:0 in front of the API; `fault` decides per request path (`lose_job_answer`:
 * lose the answer only when it is a 200, e.g. a poll that carries a job). `lost` lists the paths
 * whose answers it cut.
 */
async function startProxy(target: string, fault: (path: string) => Fault): Promise<{ url: string; server: Server; lost: string[] }> {
  const lost: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const decision = fault(req.url ?? '/');
    if (decision === 'answer_503') {
      req.resume();
      res.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('unavailable');
      return;
    }
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      if (decision === 'lose_answer' || (decision === 'lose_job_answer' && answer.statusCode === 200)) {
        lost.push(req.url ?? '/');
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, lost };
}

/**
 * The provisioning station (apps/provisioner) as its own process against the API on a port: real
 * gpg key generation and export, the simulated card (issue 13 §4). The heartbeat timeout is 2 s,
 * so a stopped station turns unavailable quickly, and the job deadline 5 s; every wait is on a
 * condition. Stations get their own TMPDIR, so the GnuPG homes of a killed one are cleaned up.
 */
describe('provisioning station process against the API', () => {
  let t: TestApp;
  let admin: string;
  let url: string;
  let registration: string;
  let receiver: TestReceiver;
  let cardDir: string;
  let stationTmp: string;
  const stations: ChildProcess[] = [];
  const proxies: Server[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      { WORKER_HEARTBEAT_TIMEOUT_SECONDS: '2', WORKER_JOB_DEADLINE_SECONDS: String(DEADLINE_SECONDS) },
      { jobs: true },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await t.loginAdmin();
    await t.createUser('alice');
    await t.database.db.update(settings).set({ egressAllowCidrs: ['127.0.0.0/8'] });
    registration = (await t.request('GET', '/api/v1/worker/token', { cookie: admin })).json().token;
    cardDir = await mkdtemp(join(tmpdir(), 'palisade-sim-card-'));
    stationTmp = await mkdtemp(join(tmpdir(), 'palisade-station-tmp-'));
    receiver = await startReceiver();
    // The webhook fan-out starts at the head of the events: wait for its cursor before any change.
    await until(
      async () => {
        const r = (await t.database.db.execute(sql`select 1 from event_consumers where name = 'webhooks'`)) as unknown as {
          rows: unknown[];
        };
        return r.rows.length > 0;
      },
      20_000,
      'the webhook fan-out',
    );
    const hook = await t.request('POST', '/api/v1/webhook', {
      cookie: admin,
      payload: { url: receiver.url, token: 'station-test-secret', triggers: ['yubikey.provisioned'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
  }, 60_000);
  afterAll(async () => {
    for (const s of stations) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
    for (const p of proxies) p.close();
    await receiver.close();
    await rm(cardDir, { recursive: true, force: true });
    // A killed station leaves its job's GnuPG home (and its gpg-agent) behind.
    for (const home of await readdir(stationTmp).catch(() => [])) {
      spawnSync('gpgconf', ['--homedir', join(stationTmp, home), '--kill', 'all']);
    }
    await rm(stationTmp, { recursive: true, force: true });
    await t.close();
  });

  function startStation(name: string, extra: string[] = [], apiUrl = url): { process: ChildProcess; output: () => string } {
    const args = [STATION, '--url', apiUrl, '--token', registration, '--name', name, '--card', 'simulated', '--poll-wait', '1'];
    const child = spawn(process.execPath, [...args, '--simulated-card-dir', cardDir, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnv({ TMPDIR: stationTmp }),
    });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    stations.push(child);
    return { process: child, output: () => output };
  }
  const workerList = async () =>
    (await t.request('GET', '/api/v1/worker', { cookie: admin })).json() as { id: number; name: string; available: boolean }[];
  const available = async (name: string) => (await workerList()).find((w) => w.name === name)?.available === true;
  async function queueJob(worker: string): Promise<number> {
    const created = await t.request('POST', '/api/v1/worker/job', { cookie: admin, payload: { worker, username: 'alice' } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as number;
  }
  async function finished(id: number, station: { output: () => string }): Promise<Record<string, unknown>> {
    let job: Record<string, unknown> = {};
    try {
      await until(
        async () => {
          job = (await t.request('GET', `/api/v1/worker/${id}`, { cookie: admin })).json();
          return job.state !== 'in_progress';
        },
        60_000,
        `job ${id} to finish`,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; the station said:\n${station.output()}`);
    }
    return job;
  }
  const runJob = async (worker: string, station: { output: () => string }) => finished(await queueJob(worker), station);
  const startedStation = async (name: string, extra: string[] = [], apiUrl = url) => {
    const station = startStation(name, extra, apiUrl);
    await until(() => available(name), 30_000, `station ${name} to register (${station.output()})`);
    return station;
  };
  const eventsOfJob = async (type: string, id: number) =>
    (await t.database.db.select().from(events).where(eq(events.type, type))).filter(
      (e) => (e.details as { job_id?: number }).job_id === id,
    );

  it(
    'provisions: the station registers, takes the job, generates and exports keys with gpg, the simulated card gets them; the API stores them and the webhook fires',
    async () => {
      const station = startStation('lab');
      await until(() => available('lab'), 30_000, `station lab to register (${station.output()})`);

      const job = await runJob('lab', station);
      expect(job, station.output()).toMatchObject({ state: 'success', worker: 'lab', username: 'alice' });
      const serial = job.serial as string;
      expect(serial).toMatch(/^[0-9]{8}$/);

      // The card "received" the keys the API now lists for alice.
      const card = JSON.parse(await readFile(join(cardDir, `${serial}.json`), 'utf8')) as { fingerprint: string };
      const keys = (await t.request('GET', '/api/v1/user/alice/auth_key', { cookie: admin })).json() as Record<string, string>[];
      expect(keys.map((k) => [k.key_type, k.serial]).sort()).toEqual([
        ['gpg', serial],
        ['ssh', serial],
      ]);
      expect(keys.find((k) => k.key_type === 'gpg')?.fingerprint).toBe(card.fingerprint);
      expect(keys.find((k) => k.key_type === 'ssh')?.key).toMatch(/^ssh-ed25519 /);
      expect((await t.request('GET', '/api/v1/user/alice/yubikey', { cookie: admin })).json()).toMatchObject([{ serial }]);

      await until(() => receiver.received.length >= 1, 20_000, 'the yubikey.provisioned webhook');
      const delivered = JSON.parse(receiver.received[0]?.body ?? '{}');
      expect(delivered).toMatchObject({
        type: 'yubikey.provisioned',
        data: { actor: { type: 'user', username: 'admin' }, details: { username: 'alice', serial, worker: 'lab' } },
      });

      // Stopped, the station turns unavailable once its heartbeat is older than the timeout.
      station.process.kill('SIGTERM');
      await until(() => station.process.exitCode !== null, 10_000, 'the station to exit');
      expect(station.process.exitCode).toBe(0);
      await until(async () => !(await available('lab')), 10_000, 'lab to turn unavailable');
      expect(
        (await t.request('POST', '/api/v1/worker/job', { cookie: admin, payload: { worker: 'lab', username: 'alice' } })).json(),
      ).toMatchObject({
        code: 'worker.unavailable',
      });
    },
    STATION_TEST_MS,
  );

  // This test stayed in progress on loaded hosts: a command that exited before the station wrote
  // its stdin crashed the station with an unhandled EPIPE mid-job (fixed in run.ts, run.test.ts).
  it(
    'reports a failing card: the job ends in error with the station’s text',
    async () => {
      const station = await startedStation('broken', ['--simulated-card-error', 'No card found (is the YubiKey plugged in?)']);
      const job = await runJob('broken', station);
      expect(job).toMatchObject({ state: 'error', error: 'No card found (is the YubiKey plugged in?)' });
      expect(job.serial).toBeUndefined();
      station.process.kill('SIGTERM');
    },
    STATION_TEST_MS,
  );

  it(
    'a live station slower than the job deadline is not failed: its job heartbeats keep the job (and the station available)',
    async () => {
      const delay = DEADLINE_SECONDS + 3;
      const station = await startedStation('slow', ['--simulated-card-delay', String(delay)]);
      const started = Date.now();
      const job = await runJob('slow', station);
      expect(job, station.output()).toMatchObject({ state: 'success', worker: 'slow' });
      expect(Date.now() - started).toBeGreaterThan(delay * 1000);
      expect(await available('slow')).toBe(true);
      station.process.kill('SIGTERM');
    },
    STATION_TEST_MS,
  );

  it(
    'a station killed mid-job: the job fails at the deadline with the reason, recorded like any failure',
    async () => {
      const station = await startedStation('crashing', ['--simulated-card-delay', '600']);
      const id = await queueJob('crashing');
      // The station acknowledged (took) the job: it is working on the card.
      await until(
        async () => (await t.database.db.select().from(workerJobs).where(eq(workerJobs.id, id)))[0]?.takenAt != null,
        30_000,
        `station crashing to take job ${id} (${station.output()})`,
      );
      const killedAt = Date.now();
      station.process.kill('SIGKILL');
      const job = await finished(id, station);
      expect(job).toMatchObject({ state: 'error', error: 'The provisioning station stopped answering.' });
      // Not before the deadline (less a heartbeat of slack), and within a few sweeps of it.
      expect(Date.now() - killedAt).toBeGreaterThan((DEADLINE_SECONDS - 1) * 1000);
      expect(await eventsOfJob('yubikey.provisioning_failed', id)).toMatchObject([
        { actorType: 'system', details: { worker: 'crashing', error: 'The provisioning station stopped answering.' } },
      ]);
      await until(async () => !(await available('crashing')), 10_000, 'crashing to turn unavailable');
    },
    STATION_TEST_MS,
  );

  it(
    'a lost poll answer and a report that fails twice (answer lost, then 503): the result still arrives, stored once',
    async () => {
      let reports = 0;
      const proxy = await startProxy(url, (path) => {
        // The first poll answer that carries the job (a poll answers 200 only with a job) is lost on
        // its way (a proxy cut the long poll). Decided per answer, not per request: the poll waiting
        // when the job is queued is the one that carries it.
        if (path.endsWith('/worker/poll')) return proxy.lost.some((p) => p.endsWith('/poll')) ? 'pass' : 'lose_job_answer';
        if (!path.endsWith('/result')) return 'pass';
        reports++;
        if (reports === 1) return 'lose_answer';
        if (reports === 2) return 'answer_503';
        return 'pass';
      });
      proxies.push(proxy.server);
      const station = await startedStation('flaky', [], proxy.url);
      const job = await runJob('flaky', station);
      expect(job, station.output()).toMatchObject({ state: 'success', worker: 'flaky' });
      // The first report was stored (its answer lost): the station goes on until the API answers it.
      await until(
        () => station.output().includes(`job ${job.id}: done`),
        30_000,
        `the station to hear its report answered (${station.output()})`,
      );
      expect(
        proxy.lost.filter((p) => p.endsWith('/poll')),
        station.output(),
      ).toHaveLength(1);
      expect(reports, station.output()).toBe(3);
      expect(station.output()).toMatch(/report: .*503.*retrying/);
      expect(await eventsOfJob('yubikey.provisioned', job.id as number)).toHaveLength(1);
      expect((await t.request('GET', '/api/v1/user/alice/yubikey', { cookie: admin })).json()).toContainEqual(
        expect.objectContaining({ serial: job.serial }),
      );
      station.process.kill('SIGTERM');
    },
    STATION_TEST_MS,
  );
});
