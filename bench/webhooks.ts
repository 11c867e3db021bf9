/**
 * Issue "Domain events" §6: webhook fan-out, 10,000 events to 5 local receivers delivered at
 * ≥ 500 deliveries/s.
 *
 * The API runs in this process with its jobs on (as main.ts runs it). Five webhooks subscribe to
 * `user.modified`, each with its own receiver; 10,000 `user.modified` events about an existing
 * user are committed in one transaction, so the fan-out queues 50,000 deliveries (each body with
 * the user read from the database, each request signed) and the sender delivers them, 32 in
 * flight, logging every attempt. Measured: from the commit until the receivers have all 50,000,
 * and until every delivery is marked delivered in the database.
 *
 * The receivers are five HTTP servers in a separate Node process answering 204; they count
 * requests and duplicate `webhook-id`s per webhook.
 * Run: cd bench && npx tsx webhooks.ts   (PostgreSQL on 127.0.0.1:5432, see bench/README.md)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.js';
import { openDatabase } from '../apps/api/src/db/client.js';
import { runMigrations } from '../apps/api/src/db/migrate.js';
import { parseEnv } from '../apps/api/src/env.js';
import { SecretBox } from '../apps/api/src/lib/crypto.js';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.js';
import { WebhooksService } from '../apps/api/src/modules/webhooks/webhooks.service.js';
import { machineInfo, recreateDatabase, round, verdict, writeResult } from './lib/common.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const RECEIVERS = 5;
const TARGET = 500;
const SECRET = 'bench-secret-key-bench-secret-key-0000';

const RECEIVER = `
const http = require('node:http');
const counts = [], dups = [], seen = [];
let ready = 0;
const ports = [];
for (let r = 0; r < ${RECEIVERS}; r++) {
  counts.push(0); dups.push(0); seen.push(new Set());
  const server = http.createServer((req, res) => {
    const id = req.headers['webhook-id'];
    req.resume();
    req.on('end', () => {
      if (seen[r].has(id)) dups[r]++;
      seen[r].add(id);
      counts[r]++;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    ports[r] = server.address().port;
    if (++ready === ${RECEIVERS}) process.send({ type: 'ready', ports });
  });
}
setInterval(() => process.connected && process.send({ type: 'counts', counts, dups, at: Date.now() }), 50);
process.on('disconnect', () => process.exit(0));
`;

const receiver: ChildProcess = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
let latest: { counts: number[]; dups: number[]; at: number } = { counts: [], dups: [], at: 0 };
const ports = await new Promise<number[]>((resolve) => {
  receiver.on('message', (m: { type: string; ports?: number[]; counts?: number[]; dups?: number[]; at?: number }) => {
    if (m.type === 'ready') resolve(m.ports ?? []);
    if (m.type === 'counts') latest = { counts: m.counts ?? [], dups: m.dups ?? [], at: m.at ?? 0 };
  });
});
const total = () => latest.counts.reduce((a, b) => a + b, 0);

const machine = await machineInfo();
const url = await recreateDatabase('palisade_bench_webhooks');
const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
await runMigrations(database);
await bootstrap(database.db, 'Bench-Admin-1!');
const pool = new pg.Pool({ connectionString: url, max: 4 });
await pool.query(`update settings set egress_allow_cidrs = '{127.0.0.1/32}'`);
const admin = (await pool.query<{ id: number }>(`select id from users where username = 'admin'`)).rows[0]?.id ?? 1;

const webhooks = new WebhooksService(database.db, SecretBox.fromSecret(SECRET));
const actor = { userId: admin, username: 'admin' };
for (const [i, port] of ports.entries()) {
  await webhooks.create(actor, {
    url: `http://127.0.0.1:${port}/hook`,
    description: `bench ${i}`,
    token: `bench-token-${i}`,
    triggers: ['user.modified'],
    enabled: true,
  });
}

const env = parseEnv({ DATABASE_URL: url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' });
const app = await buildApp({ env, database, logger: false, secretKey: SECRET, checkResponses: false, jobs: true });
await app.ready();
// The fan-out starts at the head (events before its first start are not sent): wait for it.
for (let n = 0; n === 0; await new Promise((r) => setTimeout(r, 50))) {
  n = (await pool.query(`select 1 from event_consumers where name = 'webhooks'`)).rowCount ?? 0;
}

console.log(`recording ${EVENTS} user.modified events in one transaction…`);
const committedAt = Date.now();
await pool.query(
  `insert into events (actor_type, user_id, username, ip, user_agent, module, type, object_type, object_id, object_name, subject_user_id, details)
   select 'user', $1::int, 'admin', '192.0.2.7', 'bench-agent/1.0', 'users', 'user.modified', 'user', $2::text, 'admin', $1::int,
          jsonb_build_object('changed', jsonb_build_array('first_name'), 'n', i)
   from generate_series(1, ${EVENTS}) i`,
  [admin, String(admin)],
);
const expected = EVENTS * RECEIVERS;
const deadline = Date.now() + 600_000;
while (total() < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
const receivedAt = latest.at;
const received = total();
let delivered = 0;
while (Date.now() < deadline) {
  delivered = Number((await pool.query(`select count(*) as n from webhook_deliveries where status = 'delivered'`)).rows[0]?.n ?? 0);
  if (delivered >= expected) break;
  await new Promise((r) => setTimeout(r, 100));
}
const loggedAt = Date.now();
const attemptsKept = Number((await pool.query('select count(*) as n from webhook_attempts')).rows[0]?.n ?? 0);
const duplicates = latest.dups.reduce((a, b) => a + b, 0);

const seconds = (receivedAt - committedAt) / 1000;
const perSecond = Math.round(received / seconds);
const perSecondLogged = Math.round(delivered / ((loggedAt - committedAt) / 1000));
const met = received === expected && delivered === expected && perSecond >= TARGET && perSecondLogged >= TARGET;
const result = {
  machine,
  target: `${EVENTS} events to ${RECEIVERS} local receivers at ≥ ${TARGET} deliveries/s`,
  events: EVENTS,
  deliveries_expected: expected,
  received,
  per_receiver: latest.counts,
  duplicates,
  seconds_commit_to_last_received: round(seconds, 2),
  deliveries_per_s_received: perSecond,
  delivered_in_db: delivered,
  seconds_commit_to_all_marked_delivered: round((loggedAt - committedAt) / 1000, 2),
  deliveries_per_s_marked_delivered: perSecondLogged,
  attempts_kept: attemptsKept,
  verdict: verdict(met),
};
console.log(result);
console.log(
  `webhook fan-out: ${received}/${expected} received in ${round(seconds, 2)} s = ${perSecond}/s (all marked delivered: ${perSecondLogged}/s), ` +
    `duplicates ${duplicates} → ${verdict(met)}`,
);
console.log(`wrote ${writeResult('webhooks', result)}`);

await app.close();
await pool.end();
await database.close();
receiver.kill();
