import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { runMigrations } from '#src/db/migrate.js';
import { purgeOidcArtifacts } from '#src/jobs/oidc-purge.js';
import { ensureWorkerDatabase, resetDatabase } from '#test/helpers.js';
import { databaseAdapter } from './provider.repo.js';

const noClients = async () => undefined;

/** The provider's storage contract, on PostgreSQL and on the embedded PGlite. */
describe.each(['postgres', 'pglite'] as const)('OpenID artifact adapter on %s', (kind) => {
  let database: DatabaseHandle;
  let dataDir: string | undefined;

  beforeAll(async () => {
    if (kind === 'postgres') {
      database = await openDatabase({ databaseUrl: await ensureWorkerDatabase(), dataDir: '/nonexistent', poolSize: 2 });
      await resetDatabase(database);
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'palisade-oidc-'));
      database = await openDatabase({ dataDir });
      await runMigrations(database);
    }
  });
  afterAll(async () => {
    await database.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const Adapter = () => databaseAdapter(database.db, noClients);

  it('stores, finds, consumes and destroys; finds by uid', async () => {
    const Session = Adapter();
    const sessions = new Session('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'acc', kind: 'Session' }, 60);
    expect(await sessions.find('s1')).toMatchObject({ uid: 'u1', accountId: 'acc' });
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'acc' });
    expect(await new Session('AccessToken').find('s1')).toBeUndefined();
    const codes = new Session('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1', kind: 'AuthorizationCode' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
    await sessions.destroy('s1');
    expect(await sessions.find('s1')).toBeUndefined();
  });

  it('never returns an expired artifact, and the purge deletes it', async () => {
    const Tokens = Adapter();
    const tokens = new Tokens('AccessToken');
    await tokens.upsert('expired', { grantId: 'g2', kind: 'AccessToken' }, 60);
    await tokens.upsert('live', { grantId: 'g2', kind: 'AccessToken' }, 60);
    await database.db.execute(sql`update oidc_artifacts set expires_at = now() - interval '1 second' where id = 'expired'`);
    expect(await tokens.find('expired')).toBeUndefined();
    expect(await tokens.find('live')).toBeDefined();
    expect(await purgeOidcArtifacts({ database })).toBe(1);
    const left = await database.db.execute(sql`select id from oidc_artifacts where id in ('expired', 'live')`);
    expect((left as unknown as { rows: { id: string }[] }).rows.map((r) => r.id)).toEqual(['live']);
  });

  it('revokeByGrantId removes every artifact of the grant, the grant included', async () => {
    const A = Adapter();
    await new A('Grant').upsert('g3', { accountId: 'acc', clientId: 'app', kind: 'Grant' }, 3600);
    await new A('AccessToken').upsert('at3', { grantId: 'g3', kind: 'AccessToken' }, 60);
    await new A('RefreshToken').upsert('rt3', { grantId: 'g3', kind: 'RefreshToken' }, 60);
    await new A('AccessToken').upsert('other', { grantId: 'g4', kind: 'AccessToken' }, 60);
    await new A('AccessToken').revokeByGrantId('g3');
    expect(await new A('Grant').find('g3')).toBeUndefined();
    expect(await new A('AccessToken').find('at3')).toBeUndefined();
    expect(await new A('RefreshToken').find('rt3')).toBeUndefined();
    expect(await new A('AccessToken').find('other')).toBeDefined();
  });

  it.runIf(kind === 'postgres')("runs the refresh grant's statements prepared, parsed once per connection", async () => {
    // One connection, so the statements the adapter prepared are visible to the check below.
    const single = await openDatabase({ databaseUrl: await ensureWorkerDatabase(), dataDir: '/nonexistent', poolSize: 1 });
    try {
      const A = databaseAdapter(single.db, noClients);
      const tokens = new A('RefreshToken');
      for (const id of ['rt5', 'rt6']) {
        await tokens.upsert(id, { grantId: 'g5', kind: 'RefreshToken' }, 60);
        await tokens.find(id);
        await tokens.consume(id);
      }
      expect((await tokens.find('rt6'))?.consumed).toEqual(expect.any(Number));
      const prepared = await single.db.execute(sql`select statement from pg_prepared_statements where statement like '%oidc_artifacts%'`);
      const texts = (prepared as unknown as { rows: { statement: string }[] }).rows.map((r) => r.statement);
      expect(texts.some((t) => t.startsWith('insert into oidc_artifacts'))).toBe(true);
      expect(texts.some((t) => t.startsWith('update oidc_artifacts set consumed_at'))).toBe(true);
      expect(texts.some((t) => t.includes('from oidc_artifacts') && t.includes('consumed_at'))).toBe(true);
      // Each text is prepared once however often it runs.
      expect(new Set(texts).size).toBe(texts.length);
    } finally {
      await single.close();
    }
  });
});
