/**
 * Issue "Domain events" §6: activity-log stream delivery ≥ 5,000 events/s to one local receiver.
 *
 *  1. Backlog: 100,000 events committed after the destination was created, then the API starts
 *     (jobs on, as main.ts runs it): time until the receiver has them all.
 *  2. Live: a writer in the API process records 1,000 events/s for 20 s (transactions of 10
 *     events every 10 ms, a very busy instance) while the API delivers: whether delivery keeps
 *     up, and the delay from an event's timestamp to its arrival at the receiver (p50 / p99;
 *     a batch waits up to 1 s for more events by design).
 * The target is judged on the backlog (delivery capacity), with every event delivered once and
 * in order in both phases.
 *
 * The receiver is a separate Node process (an HTTP server on loopback answering 200 to each
 * JSON-array batch, as Vector's http_server source does); it checks order and duplicates.
 * Run: cd bench && npx tsx streams.ts   (PostgreSQL on 127.0.0.1:5432, see bench/README.md)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.js';
import { openDatabase } from '../apps/api/src/db/client.js';
import { runMigrations } from '../apps/api/src/db/migrate.js';
import { parseEnv } from '../apps/api/src/env.js';
import { SecretBox } from '../apps/api/src/lib/crypto.js';
import { StreamsService } from '../apps/api/src/modules/activity-log-streams/streams.service.js';
import type { Db } from '../apps/api/src/db/client.js';
import { SYSTEM_ACTOR } from '../apps/api/src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent } from '../apps/api/src/modules/events/record-event.js';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.js';
import { machineInfo, percentile, recreateDatabase, round, verdict, writeResult } from './lib/common.js';

const BACKLOG = Number(process.env.BENCH_STREAM_BACKLOG ?? 100_000);
const LIVE_RATE = Number(process.env.BENCH_STREAM_LIVE_RATE ?? 1_000);
const LIVE_SECONDS = 20;
const PER_TX = 10;
const TARGET = 5_000;
const SECRET = 'bench-secret-key-bench-secret-key-0000';

/**
 * The receiver process: counts events and reports each batch. Checks: no id twice; backlog ids
 * (one transaction) only grow; each live writer's events (object ids) arrive in its order.
 */
const RECEIVER = `
const http = require('node:http');
let count = 0, lastBacklogId = 0, outOfOrder = 0, duplicates = 0, batches = 0;
const seen = new Set();
const lastPerWriter = new Map();
const delays = [];
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    const events = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    for (const e of events) {
      if (seen.has(e.id)) duplicates++;
      seen.add(e.id);
      if (e.details && e.details.live) {
        delays.push(now - Date.parse(e.timestamp));
        const o = Number(e.object_id), w = Math.floor(o / 1e6);
        if (o <= (lastPerWriter.get(w) ?? -1)) outOfOrder++;
        lastPerWriter.set(w, o);
      } else {
        if (e.id <= lastBacklogId) outOfOrder++;
        lastBacklogId = e.id;
      }
    }
    count += events.length;
    batches++;
    res.writeHead(200).end('ok');
    process.send({ type: 'batch', count, batches, outOfOrder, duplicates, at: now, size: events.length });
  });
});
process.on('message', (m) => { if (m === 'delays') { process.send({ type: 'delays', delays }); delays.length = 0; } });
server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
`;

interface Batch {
  type: 'batch';
  count: number;
  batches: number;
  outOfOrder: number;
  duplicates: number;
  at: number;
  size: number;
}

const receiver: ChildProcess = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
let last: Batch | undefined;
let firstAt: number | undefined;
const sizes: number[] = [];
const port = await new Promise<number>((resolve) => {
  receiver.on('message', (m: { type: string; port?: number; size?: number; at?: number }) => {
    if (m.type === 'ready') resolve(m.port as number);
    if (m.type === 'batch') {
      last = m as unknown as Batch;
      firstAt ??= m.at;
      sizes.push(m.size as number);
    }
  });
});
const receivedDelays = () =>
  new Promise<number[]>((resolve) => {
    const onMessage = (m: { type: string; delays?: number[] }) => {
      if (m.type !== 'delays') return;
      receiver.off('message', onMessage);
      resolve(m.delays ?? []);
    };
    receiver.on('message', onMessage);
    receiver.send('delays');
  });
async function until(count: number, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while ((last?.count ?? 0) < count) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

const machine = await machineInfo();
const url = await recreateDatabase('palisade_bench_streams');
const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
await runMigrations(database);
await bootstrap(database.db, 'Bench-Admin-1!');
const pool = new pg.Pool({ connectionString: url, max: 4 });
await pool.query(`update settings set egress_allow_cidrs = '{127.0.0.1/32}'`);

const streams = new StreamsService(database.db, {
  secrets: SecretBox.fromSecret(SECRET),
  egressPolicy: async () => ({ allowCidrs: ['127.0.0.1/32'] }),
});
await streams.create(SYSTEM_ACTOR, {
  kind: 'vector_http',
  name: 'bench',
  url: `http://127.0.0.1:${port}/`,
  username: 'vector',
  password: 'bench-password',
  certificate: '',
});

// 1. Backlog: events committed before the API (and its delivery job) starts.
console.log(`recording a backlog of ${BACKLOG} events…`);
await pool.query(
  `insert into events (actor_type, user_id, username, ip, user_agent, module, type, object_type, object_id, object_name, subject_user_id, details)
   select 'user', 1, 'admin', '192.0.2.7', 'bench-agent/1.0', 'users', 'user.modified', 'user', (i % 1000)::text, 'user-' || (i % 1000), i % 1000,
          jsonb_build_object('changed', jsonb_build_array('first_name', 'email'))
   from generate_series(1, ${BACKLOG}) i`,
);
await pool.query('vacuum analyze events');

const env = parseEnv({ DATABASE_URL: url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' });
const startedAt = Date.now();
const app = await buildApp({ env, database, logger: false, secretKey: SECRET, checkResponses: false, jobs: true });
await app.ready();
const backlogTotal = BACKLOG + 1; // + the destination's own "created" event
const backlogDone = await until(backlogTotal, 120_000);
const backlogEnd = last?.at ?? Date.now();
const backlog = {
  events: backlogTotal,
  completed: backlogDone,
  seconds_from_start: round((backlogEnd - startedAt) / 1000, 2),
  seconds_first_to_last_batch: round((backlogEnd - (firstAt ?? backlogEnd)) / 1000, 2),
  events_per_s_from_start: Math.round(((last?.count ?? 0) * 1000) / (backlogEnd - startedAt)),
  events_per_s_first_to_last_batch: Math.round(
    (((last?.count ?? 0) - (sizes[0] ?? 0)) * 1000) / Math.max(1, backlogEnd - (firstAt ?? backlogEnd)),
  ),
  batches: sizes.length,
  batch_size_max: Math.max(...sizes),
};
console.log('backlog', backlog);

// 2. Live: a paced writer records while the API delivers.
console.log(`recording ${LIVE_RATE} events/s for ${LIVE_SECONDS} s…`);
const liveStart = Date.now();
const liveBase = last?.count ?? 0;
const sizesBefore = sizes.length;
let LIVE = 0;
const writeStart = performance.now();
for (let tick = 0; tick < (LIVE_RATE / PER_TX) * LIVE_SECONDS; tick++) {
  const dueAt = writeStart + (tick * 1000 * PER_TX) / LIVE_RATE;
  const wait = dueAt - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const events: DomainEvent[] = Array.from({ length: PER_TX }, (_, i) => ({
    type: 'user.modified',
    actor: { type: 'user', userId: 1, username: 'admin', ip: '192.0.2.7', userAgent: 'bench-agent/1.0' },
    object: { type: 'user', id: LIVE + i, name: `user-${LIVE + i}` },
    details: { changed: ['first_name'], live: true },
  }));
  await database.db.transaction((tx) => recordEvent(tx as unknown as Db, ...events));
  LIVE += PER_TX;
}
const writeSeconds = (performance.now() - writeStart) / 1000;
const writeEndedAt = Date.now();
const liveDone = await until(liveBase + LIVE, 120_000);
const liveEnd = last?.at ?? Date.now();
const delays = (await receivedDelays()).sort((a, b) => a - b);
const liveSizes = sizes.slice(sizesBefore);
const live = {
  events: LIVE,
  completed: liveDone,
  recorded_per_s: Math.round(LIVE / writeSeconds),
  /** From the last event recorded to the last event received. */
  seconds_to_drain_after_recording: round((liveEnd - writeEndedAt) / 1000, 2),
  seconds: round((liveEnd - liveStart) / 1000, 2),
  delivered_per_s: Math.round((((last?.count ?? 0) - liveBase) * 1000) / (liveEnd - liveStart)),
  delay_ms: { p50: percentile(delays, 50), p99: percentile(delays, 99), max: delays[delays.length - 1] },
  batches: liveSizes.length,
  batch_size_mean: Math.round(LIVE / Math.max(1, liveSizes.length)),
};
console.log('live', live);

const outOfOrder = last?.outOfOrder ?? -1;
const duplicates = last?.duplicates ?? -1;
const met = backlog.completed && live.completed && backlog.events_per_s_from_start >= TARGET && outOfOrder === 0 && duplicates === 0;
const result = {
  machine,
  target: `stream delivery ≥ ${TARGET} events/s to one local receiver`,
  backlog,
  live,
  out_of_order: outOfOrder,
  duplicates,
  verdict: verdict(met),
};
console.log(
  `stream delivery: backlog ${backlog.events_per_s_from_start}/s; live ${live.delivered_per_s}/s (recorded ${live.recorded_per_s}/s), ` +
    `delay p99 ${live.delay_ms.p99} ms; out of order ${outOfOrder}, duplicates ${duplicates} → ${verdict(met)}`,
);
console.log(`wrote ${writeResult('streams', result)}`);

await app.close();
await pool.end();
await database.close();
receiver.kill();
