/**
 * Issue "Gateways" §7, control-plane side:
 *  1. Snapshot build for a 10,000-peer location (database read + protobuf message + encoding): < 200 ms.
 *  2. One device change: the work (build the delta from the change log) and the bytes sent per
 *     gateway with 100 vs 10,000 peers in the location: ratio <= 2.
 *  3. 200 gateways (connect-node clients in this process, one HTTP/2 connection each, 20 locations
 *     of 500 peers) connecting at once: all have received their snapshot in < 10 s.
 *  4. Stats ingestion into PostgreSQL (the StatsWriter's multi-row insert, 5,000-row batches): >= 50,000 rows/s.
 * Run: npx tsx bench/gateway-control.ts   (PostgreSQL on 127.0.0.1:5432, see bench/README.md)
 */
import { performance } from 'node:perf_hooks';
import { create, toBinary } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { ControlMessageSchema, GatewayMessageSchema, GatewayService } from '@palisade/proto';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.js';
import { openDatabase } from '../apps/api/src/db/client.js';
import { runMigrations } from '../apps/api/src/db/migrate.js';
import { parseEnv } from '../apps/api/src/env.js';
import { ControlRepo } from '../apps/api/src/gateway-control/control.repo.js';
import { LocationFeed } from '../apps/api/src/gateway-control/location-feed.js';
import { Outbox } from '../apps/api/src/gateway-control/outbox.js';
import { SecretBox } from '../apps/api/src/lib/crypto.js';
import { SYSTEM_ACTOR } from '../apps/api/src/modules/events/event-actor.js';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.js';
import { createServices } from '../apps/api/src/services.js';
import { machineInfo, percentile, recreateDatabase, round, verdict, writeResult } from './lib/common.js';

const SECRET = 'bench-secret-key-bench-secret-key-0000';
const url = await recreateDatabase('palisade_bench_gateway');
const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
await runMigrations(database);
await bootstrap(database.db, 'Bench-Admin-1!');
const secrets = SecretBox.fromSecret(SECRET);
const services = createServices(database.db, { sessionTtlMs: 3600_000, secrets, publicUrl: undefined });
const pool = new pg.Pool({ connectionString: url, max: 4 });
const repo = new ControlRepo(database.db);
const machine = await machineInfo();

let seq = 0;
async function seedLocation(name: string, second: number, peers: number): Promise<number> {
  const location = await services.networks.create(SYSTEM_ACTOR, {
    name,
    address: [`10.${second}.0.1/16`],
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
  const start = seq;
  seq += peers;
  await pool.query(
    `insert into devices (kind, name, wireguard_pubkey, location_id, added_by)
     select 'network', 'seed-' || i, encode(sha256(('k' || i)::text::bytea), 'base64'), $1, 'bench'
       from generate_series($2::int, $3::int) i`,
    [location.id, start + 1, start + peers],
  );
  await pool.query(
    `insert into device_ips (location_id, ip, device_id)
     select $1, $2::inet + (row_number() over (order by id))::int, id from devices where location_id = $1`,
    [location.id, `10.${second}.0.1`],
  );
  return location.id;
}

console.log('seeding locations (10,000 + 100 peers, 20 × 500 peers)…');
const big = await seedLocation('big', 1, 10_000);
const small = await seedLocation('small', 2, 100);
const fleet: number[] = [];
for (let i = 0; i < 20; i++) fleet.push(await seedLocation(`fleet-${i}`, 10 + i, 500));
await pool.query('analyze');

// 1. Snapshot build -----------------------------------------------------------------------------
const snapshotMs: number[] = [];
const encodeMs: number[] = [];
let snapshotBytes = 0;
for (let i = 0; i < 12; i++) {
  const feed = new LocationFeed(big, repo, secrets);
  const t0 = performance.now();
  const snapshot = await feed.snapshot();
  snapshotMs.push(performance.now() - t0);
  const t1 = performance.now();
  snapshotBytes = toBinary(ControlMessageSchema, snapshot!.message).length;
  encodeMs.push(performance.now() - t1);
  if (snapshot?.message.kind.case === 'snapshot' && snapshot.message.kind.value.peers.length !== 10_000)
    throw new Error('wrong peer count');
}
snapshotMs.splice(0, 2); // warm-up
encodeMs.splice(0, 2);
snapshotMs.sort((a, b) => a - b);
encodeMs.sort((a, b) => a - b);
const snapshotP50 = percentile(snapshotMs, 50);
const encodeP50 = percentile(encodeMs, 50);
console.log(
  `snapshot 10,000 peers: build p50 ${round(snapshotP50)} ms (max ${round(snapshotMs.at(-1)!)}), encoding p50 ${round(encodeP50)} ms, ${snapshotBytes} bytes`,
);

// 2. One device change: work and bytes per gateway ----------------------------------------------
async function changeCost(locationId: number, runs: number): Promise<{ p50: number; bytes: number }> {
  const feed = new LocationFeed(locationId, repo, secrets);
  const snapshot = await feed.snapshot();
  let revision = snapshot!.revision;
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const key = Buffer.from(`change-${locationId}-${i}`.padEnd(32, '.')).toString('base64');
    const { rows } = await pool.query(
      `with d as (insert into devices (kind, name, wireguard_pubkey, location_id, added_by)
                  values ('network', $2, $3, $1, 'bench') returning id)
       insert into device_ips (location_id, ip, device_id)
       select $1, (select max(ip) from device_ips where location_id = $1) + 1, id from d returning device_id`,
      [locationId, `change-${locationId}-${i}`, key],
    );
    if (rows.length !== 1) throw new Error('insert failed');
    feed.noteRevision(revision + 1n);
    const t0 = performance.now();
    const result = await feed.catchUp(snapshot!.epoch, revision);
    if (result.type !== 'deltas' || result.deltas.length !== 1) throw new Error(`unexpected catch-up ${result.type}`);
    const message = create(ControlMessageSchema, { kind: { case: 'delta', value: result.deltas[0]! } });
    bytes = toBinary(ControlMessageSchema, message).length;
    times.push(performance.now() - t0);
    revision = result.revision;
  }
  times.splice(0, 5);
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), bytes };
}
const cost100 = await changeCost(small, 60);
const cost10k = await changeCost(big, 60);
const workRatio = cost10k.p50 / cost100.p50;
const bytesRatio = cost10k.bytes / cost100.bytes;
console.log(
  `one device change: 100 peers ${round(cost100.p50, 2)} ms / ${cost100.bytes} B; 10,000 peers ${round(cost10k.p50, 2)} ms / ${cost10k.bytes} B; ratios work ${round(workRatio, 2)}, bytes ${round(bytesRatio, 2)}`,
);

// 3. 200 gateways connecting at once ------------------------------------------------------------
const env = parseEnv({ DATABASE_URL: url, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', SECRET_KEY: SECRET });
const app = await buildApp({
  env,
  database,
  logger: false,
  secretKey: SECRET,
  grpc: { port: 0, host: '127.0.0.1' },
  checkResponses: false,
});
await app.ready();
const port = app.gatewayControl!.port;
const tokens = new Map<number, string>();
for (const id of fleet) tokens.set(id, (await app.services.gateways.token(id, '127.0.0.1')).token);

const GATEWAYS = 200;
const managers: Http2SessionManager[] = [];
const aborts: AbortController[] = [];
const t0 = performance.now();
const arrivals = await Promise.all(
  Array.from({ length: GATEWAYS }, async (_, i) => {
    const manager = new Http2SessionManager(`http://127.0.0.1:${port}`);
    managers.push(manager);
    const client = createClient(GatewayService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}`, sessionManager: manager }));
    const outbox = new Outbox<ReturnType<typeof create<typeof GatewayMessageSchema>>>();
    outbox.push(
      create(GatewayMessageSchema, {
        kind: {
          case: 'hello',
          value: { gatewayId: `gw-${i}`, gatewayName: `gw-${i}`, hostname: 'bench', agentVersion: '0.1.0', interfaceName: 'wg0' },
        },
      }),
    );
    const abort = new AbortController();
    aborts.push(abort);
    const location = fleet[i % fleet.length]!;
    const stream = client.connect(outbox, { headers: { authorization: `Bearer ${tokens.get(location)}` }, signal: abort.signal });
    for await (const m of stream) {
      if (m.kind.case === 'snapshot') {
        const at = performance.now() - t0;
        outbox.push(
          create(GatewayMessageSchema, {
            kind: { case: 'ack', value: { revision: m.kind.value.revision, revisionEpoch: m.kind.value.revisionEpoch } },
          }),
        );
        void (async () => {
          for await (const _ of stream);
        })().catch(() => undefined);
        return at;
      }
    }
    throw new Error('stream ended without a snapshot');
  }),
);
arrivals.sort((a, b) => a - b);
const convergeMs = arrivals.at(-1)!;
console.log(`${GATEWAYS} gateways: all snapshots after ${round(convergeMs)} ms (p50 ${round(percentile(arrivals, 50))} ms)`);
for (const a of aborts) a.abort();
for (const m of managers) m.abort();

// 4. Stats ingestion ----------------------------------------------------------------------------
const ROWS = 500_000;
const BATCH = 5000;
const now = Date.now();
const batches = Array.from({ length: ROWS / BATCH }, (_, b) =>
  Array.from({ length: BATCH }, (_, i) => ({
    locationId: big,
    deviceId: (b * BATCH + i) % 10_000,
    gatewayId: 1,
    collectedAt: new Date(now - (b * BATCH + i)),
    upload: b * 1000 + i,
    download: b * 2000 + i,
    latestHandshake: new Date(now - 60_000),
    endpoint: '203.0.113.9:51820',
  })),
);
const s0 = performance.now();
for (const rows of batches) await repo.insertStats(rows);
const ingestSeconds = (performance.now() - s0) / 1000;
const rowsPerSecond = ROWS / ingestSeconds;
console.log(`stats ingestion: ${ROWS} rows in ${round(ingestSeconds, 2)} s = ${Math.round(rowsPerSecond)} rows/s`);

const result = {
  date: new Date().toISOString(),
  machine,
  snapshot_10k: {
    build_p50_ms: round(snapshotP50),
    build_max_ms: round(snapshotMs.at(-1)!),
    encode_p50_ms: round(encodeP50),
    bytes: snapshotBytes,
    target: 'build < 200 ms',
    verdict: verdict(snapshotP50 < 200),
    build_plus_encode_verdict: verdict(snapshotP50 + encodeP50 < 200),
  },
  device_change: {
    peers_100: { p50_ms: round(cost100.p50, 3), bytes: cost100.bytes },
    peers_10000: { p50_ms: round(cost10k.p50, 3), bytes: cost10k.bytes },
    work_ratio: round(workRatio, 2),
    bytes_ratio: round(bytesRatio, 2),
    target: 'ratio <= 2',
    verdict: verdict(workRatio <= 2 && bytesRatio <= 2),
  },
  reconnect_200: {
    gateways: GATEWAYS,
    locations: fleet.length,
    peers_per_location: 500,
    all_snapshots_ms: round(convergeMs),
    target: '< 10 s',
    verdict: verdict(convergeMs < 10_000),
  },
  stats_ingestion: {
    rows: ROWS,
    batch: BATCH,
    rows_per_second: Math.round(rowsPerSecond),
    target: '>= 50,000 rows/s',
    verdict: verdict(rowsPerSecond >= 50_000),
  },
};
console.log(`results: ${writeResult('gateway-control', result)}`);
await app.close();
await pool.end();
await database.close();
