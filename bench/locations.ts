/**
 * Issue "Locations and devices" §8:
 *  1. IP allocation in a /16 with 60,000 addresses in use: p99 < 5 ms (allocation inside a
 *     transaction holding the location lock, as device creation does), with the high-water mark
 *     as after sequential growth, and with a freed address near the start (the hole path).
 *  2. GET /api/v1/device?per_page=50 with 50,000 devices (each with connection data from the
 *     gateway stats) vs a bare route doing one equivalent SELECT on the same pool: ratio >= 50%.
 *  3. Importing a 1,000-peer WireGuard config: < 2 s.
 * Run: npx tsx bench/locations.ts   (PostgreSQL on 127.0.0.1:5432, see bench/README.md)
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { generateKeyPair } from '@palisade/wireguard';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.js';
import { openDatabase } from '../apps/api/src/db/client.js';
import { runMigrations } from '../apps/api/src/db/migrate.js';
import { parseEnv } from '../apps/api/src/env.js';
import { SecretBox } from '../apps/api/src/lib/crypto.js';
import { SYSTEM_ACTOR } from '../apps/api/src/modules/events/event-actor.js';
import { allocateIp } from '../apps/api/src/modules/networks/ip-allocator.js';
import { NetworksRepo } from '../apps/api/src/modules/networks/networks.repo.js';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.js';
import { createServices } from '../apps/api/src/services.js';
import { freePort, machineInfo, percentile, recreateDatabase, round, runLoad, verdict, writeResult } from './lib/common.js';

const ADMIN_PASSWORD = 'Bench-Admin-1!';
const USED = 60_000;
const DEVICES = 50_000;
const SAMPLES = 400;

const url = await recreateDatabase('palisade_bench_locations');
const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
await runMigrations(database);
await bootstrap(database.db, ADMIN_PASSWORD);
const secrets = SecretBox.fromSecret('bench-secret-key-bench-secret-key-0000');
const services = createServices(database.db, { sessionTtlMs: 3600_000, secrets, publicUrl: undefined });
const pool = new pg.Pool({ connectionString: url, max: 4 });

const location = await services.networks.create(SYSTEM_ACTOR, {
  name: 'Big',
  address: ['10.0.0.1/16'],
  endpoint: '127.0.0.1',
  port: 51820,
  dns: [],
  allowed_ips: [],
  allowed_groups: ['admin'],
  mfa_enabled: false,
  keepalive_interval: 25,
  peer_disconnect_threshold: 300,
  acl_enabled: false,
  acl_default_allow: false,
});

// 60,000 network devices holding 10.0.0.2 … upward, and the high-water mark after them.
console.log(`seeding ${USED} addresses…`);
await pool.query(
  `insert into devices (kind, name, wireguard_pubkey, location_id, added_by)
   select 'network', 'seed-' || i, 'seed-key-' || i, $1, 'bench' from generate_series(1, ${USED}) i`,
  [location.id],
);
await pool.query(
  `insert into device_ips (location_id, ip, device_id)
   select $1, '10.0.0.1'::inet + (row_number() over (order by id))::int, id from devices where location_id = $1`,
  [location.id],
);
await pool.query(
  `insert into ip_allocation_cursors (location_id, network, next_ip) values ($1, '10.0.0.0/16', '10.0.0.1'::inet + ${USED + 1})`,
  [location.id],
);
// What autovacuum does after a bulk load; without it the first minutes measure the vacuum.
await pool.query('vacuum analyze');

interface Timings {
  allocation_p50: number;
  allocation_p99: number;
  allocation_max: number;
  whole_create_p50: number;
  whole_create_p99: number;
}

/**
 * Allocation = allocateIp (one call of palisade_allocate_ip, which takes the location row lock);
 * whole create adds the device and address inserts and the commit. The first WARMUP rounds are
 * not recorded: they include each pooled connection's one-off compilation of the PL/pgSQL
 * function (~4 ms, once per connection).
 */
const WARMUP = 20;
async function measureAllocations(label: string, before?: () => Promise<void>): Promise<Timings> {
  const alloc: number[] = [];
  const whole: number[] = [];
  for (let i = -WARMUP; i < SAMPLES; i++) {
    await before?.();
    const started = performance.now();
    await database.db.transaction(async (tx) => {
      const repo = new NetworksRepo(tx as never);
      const allocStarted = performance.now();
      const ip = await allocateIp(repo, location.id, '10.0.0.1/16');
      if (i >= 0) alloc.push(performance.now() - allocStarted);
      const inserted = (await tx.execute(
        `insert into devices (kind, name, wireguard_pubkey, location_id) values ('network', 'a-${label}-${i}', 'a-${label}-${i}', ${location.id}) returning id`,
      )) as unknown as { rows: { id: number }[] };
      await repo.insertIp(location.id, Number(inserted.rows[0]?.id), ip);
    });
    if (i >= 0) whole.push(performance.now() - started);
  }
  alloc.sort((a, b) => a - b);
  whole.sort((a, b) => a - b);
  return {
    allocation_p50: round(percentile(alloc, 50), 2),
    allocation_p99: round(percentile(alloc, 99), 2),
    allocation_max: round(alloc.at(-1) ?? 0, 2),
    whole_create_p50: round(percentile(whole, 50), 2),
    whole_create_p99: round(percentile(whole, 99), 2),
  };
}

console.log('allocating at the high-water mark…');
const sequential = await measureAllocations('seq');
console.log('allocating into a freed hole near the start each time…');
let victim = 0;
const holes = await measureAllocations('hole', async () => {
  victim++;
  await pool.query(`delete from devices where name = $1`, [`seed-${victim}`]);
});

// 2. Device list with 50,000 user devices.
console.log(`seeding ${DEVICES} user devices…`);
await pool.query(
  `insert into users (username, first_name, last_name, email)
   select 'u' || i, 'U', 'Ser', 'u' || i || '@example.com' from generate_series(1, 5000) i`,
);
await pool.query(
  `insert into devices (kind, name, wireguard_pubkey, user_id, created_at)
   select 'user', 'dev-' || i, 'user-key-' || i, (select min(id) from users) + (i % 5000), now() - i * interval '1 second'
   from generate_series(1, ${DEVICES}) i`,
);
// Every user device was seen by the gateway once (half of them connected now): one stats row per
// device, inserted as the gateway's stats writer does, so the connection trigger fills
// device_connections (its cost for a 50,000-row batch is recorded).
const statsStarted = performance.now();
await pool.query(
  `insert into peer_stats (location_id, device_id, gateway_id, collected_at, upload, download, latest_handshake, endpoint)
   select $1, id, 1, now(), 100, 200, now() - (id % 2) * interval '1 hour', '198.51.100.' || (id % 250) || ':51820'
     from devices where kind = 'user'`,
  [location.id],
);
const statsInsertMs = performance.now() - statsStarted;
await pool.query('analyze');
const env = parseEnv({ DATABASE_URL: url, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0' });
const app = await buildApp({ env, database, logger: false, secretKey: 'bench-secret-key-bench-secret-key-0000', checkResponses: false });
const bare = Fastify({ logger: false });
// The bare route runs the one statement the API's device list runs (page, owner names, addresses
// and the trigger-kept total), on the same pool, without the API's hooks, schemas or session.
/** The device list's one statement; `withConnections: false` is the statement before connection data. */
const deviceListSql = (withConnections: boolean) => `select p.id, p.name, p.wireguard_pubkey, p.user_id, p.created_at, u.username,
            coalesce(ips.list, '[]') as ips, ${withConnections ? "coalesce(conns.list, '[]')" : "'[]'"} as connections,
            coalesce((select n from row_counts where name = 'devices:user'),
                     (select count(*) from devices where kind = 'user')) as total
       from (select id, name, wireguard_pubkey, user_id, created_at from devices where kind = 'user'
             order by created_at desc, id desc limit 50 offset 0) p
       left join users u on u.id = p.user_id
       left join lateral (
         select json_agg(json_build_object('location_id', di.location_id, 'location_name', l.name, 'ip', host(di.ip))
           order by di.location_id, di.ip) as list
         from device_ips di join locations l on l.id = di.location_id where di.device_id = p.id
       ) ips on true
       ${
         withConnections
           ? `left join lateral (
         select json_agg(json_build_object('location_id', c.location_id, 'location_name', l.name,
           'latest_handshake', c.latest_handshake, 'endpoint', c.endpoint, 'connected_at', c.connected_at,
           'is_active', c.latest_handshake > now() - make_interval(secs => l.peer_disconnect_threshold))) as list
         from device_connections c join locations l on l.id = c.location_id where c.device_id = p.id
       ) conns on true`
           : ''
       }
      order by p.created_at desc, p.id desc`;
bare.get('/bare', async () => {
  const { rows } = await pool.query({ name: 'bench-bare-devices', text: deviceListSql(true) });
  return { items: rows, total: Number(rows[0]?.total ?? 0) };
});
// The statement's own cost with and without the connection join: PostgreSQL backend CPU time over
// alternating blocks on one connection (CPU time is far less noisy than wall time on shared cores).
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows: pidRows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
const backendCpu = () => {
  const fields = readFileSync(`/proc/${pidRows[0]!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const statementCpu = { with: 0, without: 0 };
const STATEMENT_RUNS = 200;
for (let block = 0; block < 10; block++) {
  for (const arm of block % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
    const before = backendCpu();
    for (let i = 0; i < STATEMENT_RUNS; i++) await client.query({ name: `list-${arm}`, text: deviceListSql(arm === 'with') });
    statementCpu[arm] += backendCpu() - before;
  }
}
await client.end();
const perQueryMs = (s: number) => round((s / (10 * STATEMENT_RUNS)) * 1000, 3);
const explainRows = await pool.query(
  `explain (analyze, buffers, format text) select p.id, coalesce(conns.list, '[]') as connections
     from (select id from devices where kind = 'user' order by created_at desc, id desc limit 50) p
     left join lateral (
       select json_agg(json_build_object('latest_handshake', c.latest_handshake, 'endpoint', c.endpoint)) as list
       from device_connections c join locations l on l.id = c.location_id where c.device_id = p.id
     ) conns on true`,
);
const explain = explainRows.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
const apiPort = await freePort();
const barePort = await freePort();
await app.listen({ port: apiPort, host: '127.0.0.1' });
await bare.listen({ port: barePort, host: '127.0.0.1' });
const login = await fetch(`http://127.0.0.1:${apiPort}/api/v1/auth`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
});
const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
console.log('loading GET /api/v1/device?per_page=50 and the bare route (50 connections, 10 s each)…');
const api = await runLoad({
  url: `http://127.0.0.1:${apiPort}/api/v1/device?per_page=50`,
  connections: 50,
  duration: 10,
  headers: { cookie },
});
const raw = await runLoad({ url: `http://127.0.0.1:${barePort}/bare`, connections: 50, duration: 10 });

// 3. Import a 1,000-peer config.
const server = generateKeyPair();
const peers = Array.from(
  { length: 1000 },
  (_, i) => `[Peer]\nPublicKey = ${generateKeyPair().publicKey}\nAllowedIPs = 10.250.${Math.floor((i + 2) / 256)}.${(i + 2) % 256}/32\n`,
);
const config = `[Interface]\nPrivateKey = ${server.privateKey}\nAddress = 10.250.0.1/16\nListenPort = 51820\n\n${peers.join('\n')}`;
const importStarted = performance.now();
const imported = await fetch(`http://127.0.0.1:${apiPort}/api/v1/network/import`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie },
  body: JSON.stringify({ name: 'Imported', endpoint: '127.0.0.1', config, allowed_groups: ['admin'] }),
});
const importMs = performance.now() - importStarted;
const importedBody = (await imported.json()) as { devices?: unknown[] };

const ratio = api.req_per_s / raw.req_per_s;
const result = {
  machine: await machineInfo(),
  allocation_60k_used: { samples: SAMPLES, at_high_water_mark_ms: sequential, into_freed_hole_ms: holes, target_p99_ms: 5 },
  allocation_verdict: verdict(sequential.allocation_p99 < 5 && holes.allocation_p99 < 5),
  device_list_50k: {
    api,
    bare: raw,
    ratio: round(ratio, 3),
    target_ratio: 0.5,
    verdict: verdict(ratio >= 0.5),
    p99_verdict_50ms: verdict(api.latency_ms.p99 < 50),
    with_connection_data: true,
    stats_insert_50k_rows_ms: round(statsInsertMs, 0),
    statement_backend_cpu_ms: {
      with_connections: perQueryMs(statementCpu.with),
      without_connections: perQueryMs(statementCpu.without),
      ratio: round(statementCpu.with / statementCpu.without, 2),
    },
    connections_explain: explain,
  },
  import_1000_peers: {
    status: imported.status,
    peers_returned: importedBody.devices?.length,
    ms: round(importMs, 0),
    target_ms: 2000,
    verdict: verdict(imported.status === 201 && importMs < 2000),
  },
};
console.log(JSON.stringify(result, null, 2));
console.log(`written ${writeResult('locations', result)}`);
await app.close();
await bare.close();
await pool.end();
await database.close();
