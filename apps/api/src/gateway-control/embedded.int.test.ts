import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { buildApp } from '#src/app.js';
import { openDatabase } from '#src/db/client.js';
import { runMigrations } from '#src/db/migrate.js';
import { queryRows } from '#src/db/rows.js';
import { parseEnv } from '#src/env.js';
import { bootstrap } from '#src/modules/users/bootstrap.service.js';
import { connectGateway, deltaOf, snapshotOf } from '#test/gateway-support.js';
import { createLocation, newKey } from '#test/network-fixtures.js';

/** Embedded mode (PGlite, one process): changes reach gateways through PGlite's in-process NOTIFY. */
it('embedded database: snapshot, delta on device create, stats, status, purge', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'palisade-gw-'));
  const database = await openDatabase({ dataDir });
  await runMigrations(database);
  await bootstrap(database.db, 'Admin123!test');
  const app = await buildApp({ env: parseEnv({ LOG_LEVEL: 'silent' }), database, logger: false, grpc: { port: 0, host: '127.0.0.1' } });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: 'Admin123!test' } });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const loc = await createLocation(app, cookie);
  const token = (await app.inject({ method: 'GET', url: `/api/v1/network/${loc.id}/token`, headers: { cookie } })).json().token;
  const g = connectGateway(app.gatewayControl!.port, token);
  await g.waitFor('snapshot', snapshotOf);
  const key = newKey();
  await app.inject({ method: 'POST', url: '/api/v1/device/admin', headers: { cookie }, payload: { name: 'x', wireguard_pubkey: key } });
  const d = await g.waitFor('delta', deltaOf);
  expect(d.ops[0]?.op.case).toBe('peerUpsert');
  g.send({ kind: { case: 'statsReport', value: { peers: [{ publicKey: key, rxBytes: 5n, txBytes: 6n, endpoint: '' }] } } });
  // The report is stored once the server has read it and the stats writer has flushed it.
  for (const deadline = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 50))) {
    await app.gatewayControl!.stats.flush();
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from peer_stats where upload = 5`);
    if (row?.n === 1) break;
    if (Date.now() > deadline) throw new Error('timed out waiting for the stats report to be stored');
  }
  const stats = await app.inject({ method: 'GET', url: `/api/v1/network/${loc.id}/stats/users`, headers: { cookie } });
  expect(stats.statusCode).toBe(200);
  const gws = await app.inject({ method: 'GET', url: `/api/v1/network/gateways`, headers: { cookie } });
  expect(gws.json()[0].status).toBe('all_connected');
  expect(await app.gatewayControl!.purge()).toBe(true);
  g.close();
  await app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);
