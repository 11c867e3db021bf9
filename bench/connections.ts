/**
 * Cost of keeping device connection data (table device_connections, filled by a statement trigger
 * on peer_stats inserts) on the stats ingestion path: the same stats batches inserted with the
 * trigger enabled and disabled, alternating rounds so that a busy machine affects both alike.
 * 10,000 devices in one location; each batch carries 5,000 peers' counters, about a quarter of them
 * with a new handshake (WireGuard renews handshakes every 2 minutes while traffic flows).
 * Run: npx tsx bench/connections.ts   (PostgreSQL on 127.0.0.1:5432, see bench/README.md)
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client.js';
import { runMigrations } from '../apps/api/src/db/migrate.js';
import { ControlRepo, type StatsRow } from '../apps/api/src/gateway-control/control.repo.js';
import { machineInfo, recreateDatabase, round, verdict, writeResult } from './lib/common.js';

const DEVICES = 10_000;
const BATCH = 5_000;
const BATCHES_PER_ROUND = 10;
const ROUNDS = 10;

const url = await recreateDatabase('palisade_bench_connections');
// One connection: the stats inserts run on one PostgreSQL backend whose CPU time is read from /proc
// (CPU time is far less noisy than wall time on shared cores).
const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 1 });
await runMigrations(database);
const pool = new pg.Pool({ connectionString: url, max: 2 });
const { rows: loc } = await pool.query(
  `insert into locations (name, addresses, endpoint, port, pubkey, private_key_enc) values ('Bench', '{10.0.0.1/16}', 'x', 51820, 'k', 'k') returning id`,
);
const locationId = loc[0].id as number;
await pool.query(
  `insert into devices (kind, name, wireguard_pubkey, location_id) select 'network', 'd' || i, 'key-' || i, $1 from generate_series(1, ${DEVICES}) i`,
  [locationId],
);
const { rows: ids } = await pool.query<{ id: number }>('select id from devices order by id');
const repo = new ControlRepo(database.db);

// Each batch is 15 s of a gateway reporting every 30 s; a peer's handshake renews every 120 s, so
// about a quarter of the reports carry a newer handshake than the last.
let clock = Date.now() - 6 * 3600_000;
function batch(n: number): StatsRow[] {
  clock += 15_000;
  return Array.from({ length: BATCH }, (_, i) => {
    const device = ids[(n * BATCH + i) % DEVICES]!.id;
    return {
      locationId,
      deviceId: device,
      gatewayId: 1,
      collectedAt: new Date(clock),
      upload: n * 100 + i,
      download: n * 200 + i,
      latestHandshake: new Date(clock - ((clock + device * 997) % 120_000)),
      endpoint: `198.51.100.${i % 250}:51820`,
    };
  });
}

const [backend] = ((await database.db.execute('select pg_backend_pid() as pid')) as unknown as { rows: { pid: number }[] }).rows;
/** CPU seconds (user + system) the backend has used so far. */
const backendCpu = () => {
  const fields = readFileSync(`/proc/${backend!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const seconds = { with: 0, without: 0 };
const cpu = { with: 0, without: 0 };
let n = 0;
for (let round_ = 0; round_ < ROUNDS; round_++) {
  for (const arm of round_ % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
    await pool.query(`alter table peer_stats ${arm === 'with' ? 'enable' : 'disable'} trigger peer_stats_track_connections`);
    const started = performance.now();
    const cpuStarted = backendCpu();
    for (let b = 0; b < BATCHES_PER_ROUND; b++) await repo.insertStats(batch(n++));
    seconds[arm] += (performance.now() - started) / 1000;
    cpu[arm] += backendCpu() - cpuStarted;
  }
}
await pool.query('alter table peer_stats enable trigger peer_stats_track_connections');
const rowsPerArm = ROUNDS * BATCHES_PER_ROUND * BATCH;
const rate = (s: number) => Math.round(rowsPerArm / s);
const ratio = seconds.with / seconds.without;
const { rows: kept } = await pool.query('select count(*)::int as n from device_connections');
const result = {
  machine: await machineInfo(),
  devices: DEVICES,
  batch: BATCH,
  rows_per_arm: rowsPerArm,
  rows_per_second_with_trigger: rate(seconds.with),
  rows_per_second_without_trigger: rate(seconds.without),
  time_ratio_with_vs_without: round(ratio, 2),
  backend_cpu_s_with_trigger: round(cpu.with, 2),
  backend_cpu_s_without_trigger: round(cpu.without, 2),
  backend_cpu_ratio_with_vs_without: round(cpu.with / cpu.without, 2),
  backend_cpu_us_per_row_added: round(((cpu.with - cpu.without) / rowsPerArm) * 1e6, 1),
  device_connections_rows: kept[0].n,
  backend_rows_per_cpu_second_with_trigger: Math.round(rowsPerArm / cpu.with),
  // The gateway-control stats target (>= 50,000 rows/s), on the PostgreSQL backend's CPU time: wall
  // time on a shared 2-core machine measures the neighbours as much as the inserts.
  target: 'with the trigger >= 50,000 rows per backend CPU second',
  verdict: verdict(rowsPerArm / cpu.with >= 50_000),
};
console.log(JSON.stringify(result, null, 2));
console.log(`written ${writeResult('connections', result)}`);
await pool.end();
await database.close();
