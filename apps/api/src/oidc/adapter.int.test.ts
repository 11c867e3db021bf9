import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { runMigrations } from '#src/db/migrate.js';
import { purgeOidcArtifacts } from '#src/jobs/oidc-purge.js';
import { bootstrap } from '#src/modules/users/bootstrap.service.js';
import { ADMIN_PASSWORD, ensureWorkerDatabase, resetDatabase } from '#test/helpers.js';
import { findAccount } from './account.js';
import { databaseAdapter } from './provider.repo.js';
import { RequestWrites, requestWrites } from './request-writes.repo.js';

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
      await bootstrap(database.db, ADMIN_PASSWORD);
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

  /** A token request's adapter calls, as the token endpoint makes them (oidc/request-writes.repo.ts). */
  const inRequest = <T>(fn: (writes: RequestWrites) => Promise<T>): Promise<T> => {
    const writes = new RequestWrites();
    return requestWrites.run(writes, () => fn(writes));
  };

  it('a token request reads the grant and the account with its refresh token, and writes consume + new tokens in one statement at the end', async () => {
    const A = Adapter();
    const subs = await database.db.execute(sql`select oidc_sub::text as sub from users where username = 'admin'`);
    const sub = (subs as unknown as { rows: { sub: string }[] }).rows[0]?.sub ?? '';
    await new A('Grant').upsert('g7', { accountId: sub, clientId: 'app', kind: 'Grant' }, 3600);
    await new A('RefreshToken').upsert('rt7', { grantId: 'g7', accountId: sub, kind: 'RefreshToken' }, 60);
    const execute = vi.spyOn(database.db, 'execute');
    const client = (database.db as unknown as { $client?: { query: (...args: unknown[]) => unknown } }).$client;
    const query = kind === 'postgres' && client ? vi.spyOn(client, 'query') : undefined;
    const statements = () => execute.mock.calls.length + (query?.mock.calls.length ?? 0);
    try {
      await inRequest(async (writes) => {
        expect(await new A('RefreshToken').find('rt7')).toMatchObject({ grantId: 'g7' });
        expect(await new A('Grant').find('g7')).toMatchObject({ accountId: sub });
        const account = await findAccount(database.db, sub);
        expect(await account?.claims('id_token', 'openid profile', {}, [])).toMatchObject({ sub, preferred_username: 'admin' });
        expect(statements()).toBe(1);
        await new A('RefreshToken').consume('rt7');
        await new A('RefreshToken').upsert('rt8', { grantId: 'g7', kind: 'RefreshToken' }, 60);
        await new A('AccessToken').upsert('at8', { grantId: 'g7', kind: 'AccessToken' }, 60);
        expect(statements()).toBe(1);
        // Nothing is written until the request settles (before its answer is sent).
        expect(await requestWrites.exit(() => new A('AccessToken').find('at8'))).toBeUndefined();
        expect(statements()).toBe(2);
        await writes.settle(database.db);
        expect(statements()).toBe(3);
        // Read once: a second lookup of the same account asks the database again.
        await findAccount(database.db, sub);
        expect(statements()).toBe(4);
      });
    } finally {
      execute.mockRestore();
      query?.mockRestore();
    }
    expect((await new A('RefreshToken').find('rt7'))?.consumed).toEqual(expect.any(Number));
    expect(await new A('RefreshToken').find('rt8')).toMatchObject({ grantId: 'g7' });
    expect(await new A('AccessToken').find('at8')).toMatchObject({ grantId: 'g7' });
  });

  it('a token request whose refresh token belongs to a disabled user finds no account', async () => {
    const A = Adapter();
    const subs = await database.db.execute(sql`select oidc_sub::text as sub from users where username = 'admin'`);
    const sub = (subs as unknown as { rows: { sub: string }[] }).rows[0]?.sub ?? '';
    await new A('RefreshToken').upsert('rt12', { grantId: 'g12', accountId: sub, kind: 'RefreshToken' }, 60);
    await database.db.execute(sql`update users set is_active = false where username = 'admin'`);
    try {
      const account = await inRequest(async () => {
        await new A('RefreshToken').find('rt12');
        return findAccount(database.db, sub);
      });
      expect(account).toBeUndefined();
    } finally {
      await database.db.execute(sql`update users set is_active = true where username = 'admin'`);
    }
  });

  it('a token request whose refresh token another request consumed meanwhile stores nothing, answers invalid_grant and revokes the grant', async () => {
    const A = Adapter();
    await new A('Grant').upsert('g9', { accountId: 'acc', clientId: 'app', kind: 'Grant' }, 3600);
    await new A('RefreshToken').upsert('rt9', { grantId: 'g9', kind: 'RefreshToken' }, 60);
    await new A('AccessToken').upsert('at9', { grantId: 'g9', kind: 'AccessToken' }, 60);
    const outcome = inRequest(async (writes) => {
      expect((await new A('RefreshToken').find('rt9'))?.consumed).toBeUndefined();
      // Another request (or replica) uses the same token between this one's read and its write.
      await new A('RefreshToken').consume('rt9');
      await requestWrites.exit(() => new A('RefreshToken').consume('rt9'));
      await new A('RefreshToken').upsert('rt10', { grantId: 'g9', kind: 'RefreshToken' }, 60);
      await new A('AccessToken').upsert('at10', { grantId: 'g9', kind: 'AccessToken' }, 60);
      await writes.settle(database.db);
    });
    await expect(outcome).rejects.toMatchObject({ error: 'invalid_grant' });
    for (const [model, id] of [
      ['RefreshToken', 'rt10'],
      ['AccessToken', 'at10'],
      ['AccessToken', 'at9'],
      ['Grant', 'g9'],
    ] as const) {
      expect(await new A(model).find(id), `${model} ${id}`).toBeUndefined();
    }
  });

  it('a read in a token request first writes what the request queued (it reads its own writes)', async () => {
    const A = Adapter();
    await inRequest(async () => {
      await new A('AccessToken').upsert('at11', { grantId: 'g11', kind: 'AccessToken' }, 60);
      expect(await new A('AccessToken').find('at11')).toMatchObject({ grantId: 'g11' });
    });
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
