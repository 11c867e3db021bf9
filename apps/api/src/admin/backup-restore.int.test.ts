import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { runMigrations } from '#src/db/migrate.js';
import { locations, settings } from '#src/db/schema/index.js';
import { parseEnv } from '#src/env.js';
import { SecretBox, sha256 } from '#src/lib/crypto.js';
import { ControlRepo } from '#src/gateway-control/control.repo.js';
import { EventsRepo } from '#src/modules/events/events.repo.js';
import { ADMIN_DATABASE_URL, databaseUrl, runPrefix } from '#test/db-urls.js';
import { ADMIN_PASSWORD, createTestApp, ensureWorkerDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { addDevice, createLocation } from '#test/network-fixtures.js';
import { ArchiveError, type Manifest } from './archive.js';
import { readJournal } from './catalog.repo.js';
import { type AdminEnv, backupCommand, restoreCommand } from './commands.js';
import { migrationsUpTo } from './restore.repo.js';

/**
 * Backup of a filled PostgreSQL instance, restored into an empty data directory (embedded); that
 * embedded instance backed up again and restored into an empty PostgreSQL database (the move to
 * PostgreSQL). Each restored instance is started (buildApp) and must hold everything.
 */

const KEY = 'backup-test-secret-key-0123456789abcdefghijklmnop';
const SMTP_PASSWORD = 'smtp-pass-Sup3r';
const quiet = { info: () => undefined, warn: () => undefined };

/** An archive's manifest and row lines, for crafting altered archives. */
function decodeArchive(data: Buffer): { manifest: Manifest; rows: string[] } {
  const lines = gunzipSync(data).toString('utf8').trimEnd().split('\n');
  return { manifest: JSON.parse(lines[0] ?? '{}'), rows: lines.slice(1, -1) };
}

/** An archive with a valid checksum (what a crafted file can have). */
function encodeArchive({ manifest, rows }: { manifest: Manifest; rows: string[] }): Buffer {
  const body = `${[JSON.stringify(manifest), ...rows].join('\n')}\n`;
  const sha256 = createHash('sha256').update(body).digest('hex');
  return gzipSync(`${body}${JSON.stringify({ end: true, sha256 })}\n`);
}

describe('palisade-admin backup and restore', () => {
  let source: TestApp;
  let tmp: string;
  let admin: pg.Client;
  const target = `${runPrefix()}_restore_pg`;
  const targetEmpty = `${runPrefix()}_restore_pg_full`;
  const expected = { token: '', locationId: 0, privateKey: '', users: [] as string[], maxDeviceId: 0 };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'palisade-backup-'));
    admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    for (const name of [target, targetEmpty]) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
    source = await createTestApp({ SECRET_KEY: KEY });
    const cookie = await source.loginAdmin();
    expect((await source.request('POST', '/api/v1/group', { cookie, payload: { name: 'staff' } })).statusCode).toBe(201);
    await source.createUser('ann');
    await source.createUser('bob');
    expect((await source.request('POST', '/api/v1/group/staff', { cookie, payload: { username: 'ann' } })).statusCode).toBe(200);
    const location = await createLocation(source.app, cookie);
    await addDevice(source.app, cookie, 'ann');
    const dev = await addDevice(source.app, cookie, 'bob');
    const token = await source.request('GET', `/api/v1/network/${location.id}/token`, { cookie });
    expect(token.statusCode).toBe(200);
    const patch = await source.request('PATCH', '/api/v1/settings', {
      cookie,
      payload: { smtp_server: 'smtp.example.com', smtp_password: SMTP_PASSWORD },
    });
    expect(patch.statusCode).toBe(200);
    const [row] = await source.database.db.select().from(locations).where(eq(locations.id, location.id));
    Object.assign(expected, {
      token: (token.json() as { token: string }).token,
      locationId: location.id,
      privateKey: SecretBox.fromSecret(KEY).decrypt(row?.privateKeyEnc ?? ''),
      users: ['admin', 'ann', 'bob'],
      maxDeviceId: dev.device.id,
    });
    // The source's data directory holds the key file (an instance without SECRET_KEY).
    await mkdir(join(tmp, 'source-data'));
    await writeFile(join(tmp, 'source-data', 'secret.key'), `${KEY}\n`);
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    for (const name of [target, targetEmpty]) await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
    await rm(tmp, { recursive: true, force: true });
  });

  const sourceEnv = async (): Promise<AdminEnv> => ({
    DATA_DIR: join(tmp, 'source-data'),
    DATABASE_URL: await ensureWorkerDatabase(),
    SECRET_KEY: undefined,
  });

  /** Starts the product on a restored instance and checks the data and secrets. */
  async function expectEverything(database: DatabaseHandle, dataDir: string, newUser: string) {
    const secretKey = (await readFile(join(dataDir, 'secret.key'), 'utf8')).trim();
    expect(secretKey).toBe(KEY);
    const env = parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', UPDATE_CHECK_ENABLED: 'false' });
    const app = await buildApp({ env, database, logger: false, secretKey });
    try {
      await app.ready();
      const login = async (username: string, password: string) => {
        const res = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username, password } });
        expect(res.statusCode, res.body).toBe(200);
        return String(res.headers['set-cookie']).split(';')[0] ?? '';
      };
      const cookie = await login('admin', ADMIN_PASSWORD);
      await login('ann', USER_PASSWORD);
      const users = await app.inject({ method: 'GET', url: '/api/v1/user', headers: { cookie } });
      expect((users.json() as { items: { username: string }[] }).items.map((u) => u.username).sort()).toEqual(expected.users);
      const groups = await app.inject({ method: 'GET', url: '/api/v1/group', headers: { cookie } });
      expect(groups.body).toContain('staff');
      const members = await app.inject({ method: 'GET', url: '/api/v1/group/staff', headers: { cookie } });
      expect(members.body).toContain('ann');
      // The gateway token still authenticates (the check the gRPC server makes) and reads back.
      expect(await new ControlRepo(database.db).locationForToken(sha256(expected.token))).toBe(expected.locationId);
      const token = await app.inject({ method: 'GET', url: `/api/v1/network/${expected.locationId}/token`, headers: { cookie } });
      expect((token.json() as { token: string }).token).toBe(expected.token);
      // The location's private key and the SMTP password decrypt with the restored key.
      const box = SecretBox.fromSecret(secretKey);
      const [location] = await database.db.select().from(locations).where(eq(locations.id, expected.locationId));
      expect(box.decrypt(location?.privateKeyEnc ?? '')).toBe(expected.privateKey);
      const [row] = await database.db.select().from(settings);
      expect(box.decrypt(row?.smtpPassword ?? '')).toBe(SMTP_PASSWORD);
      // The restored event outbox: a new event sorts after every restored one, so consumers
      // (webhooks, streams) reading from a restored cursor see it.
      const [last] = (
        (await database.db.execute(sql`select tx_id::text as tx, id from events order by tx_id desc, id desc limit 1`)) as unknown as {
          rows: { tx: string; id: number | string }[];
        }
      ).rows;
      expect(last).toBeDefined();
      // Sequences continue: new rows get new ids.
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/user',
        headers: { cookie },
        payload: { username: newUser, first_name: 'C', last_name: 'D', email: `${newUser}@example.com`, password: USER_PASSWORD },
      });
      expect(created.statusCode, created.body).toBe(201);
      const dev = await addDevice(app, cookie, newUser);
      expect(dev.device.id).toBeGreaterThan(expected.maxDeviceId);
      const later = await new EventsRepo(database.db).readAfter({ tx: last?.tx ?? '0', id: Number(last?.id) }, 100);
      expect(JSON.stringify(later)).toContain(newUser);
      // What the next backup of this instance must hold.
      expected.users = [...expected.users, newUser].sort();
      expected.maxDeviceId = dev.device.id;
      const counted = (await database.db.execute(
        sql`select (select n from row_counts where name = 'users') as kept, (select count(*) from users) as n`,
      )) as unknown as {
        rows: { kept: number | string; n: number | string }[];
      };
      expect(Number(counted.rows[0]?.kept)).toBe(Number(counted.rows[0]?.n));
    } finally {
      await app.close();
    }
  }

  it('restores a PostgreSQL backup into an empty data directory, then moves that embedded instance to PostgreSQL', async () => {
    const env = await sourceEnv();
    const first = join(tmp, 'first.backup');
    const manifest = await backupCommand(env, first, { withoutKey: false }, quiet);
    expect(manifest.secret_key.included).toBe(true);
    expect(manifest.database).toBe('postgresql');
    expect(manifest.migrations.tag).toMatch(/^\d{4}_/);

    const embeddedDir = join(tmp, 'embedded');
    await restoreCommand({ DATA_DIR: embeddedDir, DATABASE_URL: undefined, SECRET_KEY: undefined }, first, quiet);
    const embedded = await openDatabase({ dataDir: embeddedDir });
    try {
      await expectEverything(embedded, embeddedDir, 'cyd');
    } finally {
      await embedded.close();
    }

    // The move to PostgreSQL: back up the embedded instance, restore with DATABASE_URL.
    const second = join(tmp, 'second.backup');
    const embeddedEnv = { DATA_DIR: embeddedDir, DATABASE_URL: undefined, SECRET_KEY: undefined };
    // Not while a server has it open (it holds postmaster.pid).
    await writeFile(join(embeddedDir, 'pgdata', 'postmaster.pid'), '-42\n');
    await expect(backupCommand(embeddedEnv, second, { withoutKey: false }, quiet)).rejects.toThrow(/embedded database is in use/);
    expect(existsSync(second)).toBe(false);
    await rm(join(embeddedDir, 'pgdata', 'postmaster.pid'));
    const fromEmbedded = await backupCommand(
      { DATA_DIR: embeddedDir, DATABASE_URL: undefined, SECRET_KEY: undefined },
      second,
      { withoutKey: false },
      quiet,
    );
    expect(fromEmbedded.database).toBe('pglite');
    const pgDir = join(tmp, 'pg-data');
    await restoreCommand({ DATA_DIR: pgDir, DATABASE_URL: databaseUrl(target), SECRET_KEY: undefined }, second, quiet);
    const postgres = await openDatabase({ databaseUrl: databaseUrl(target), dataDir: pgDir });
    try {
      await expectEverything(postgres, pgDir, 'dee');
    } finally {
      await postgres.close();
    }
  }, 300_000);

  it('refuses a non-empty target, a corrupted archive and an archive newer than the code, changing nothing', async () => {
    const env = await sourceEnv();
    const file = join(tmp, 'refusals.backup');
    const warnings: string[] = [];
    await backupCommand(env, file, { withoutKey: true }, { info: () => undefined, warn: (l) => warnings.push(l) });
    expect(warnings.join('\n')).toMatch(/does NOT contain the secret key/);
    const archive = await readFile(file);
    expect(gunzipSync(archive).toString()).not.toContain(KEY);

    // Non-empty PostgreSQL database (the source itself) and non-empty data directory.
    const userCount = async () =>
      ((await source.database.db.execute(sql`select count(*) as n from users`)) as unknown as { rows: unknown[] }).rows;
    const before = await userCount();
    await expect(restoreCommand({ ...env, DATA_DIR: join(tmp, 'x1') }, file, quiet)).rejects.toThrow(/not empty/);
    expect(await userCount()).toEqual(before);
    expect(existsSync(join(tmp, 'x1', 'secret.key'))).toBe(false);
    const full = join(tmp, 'full');
    await mkdir(join(full, 'pgdata'), { recursive: true });
    await writeFile(join(full, 'pgdata', 'marker'), 'x');
    await expect(restoreCommand({ DATA_DIR: full, DATABASE_URL: undefined, SECRET_KEY: undefined }, file, quiet)).rejects.toThrow(
      /pgdata exists/,
    );
    expect(await readdir(join(full, 'pgdata'))).toEqual(['marker']);

    const emptyTarget = { DATA_DIR: join(tmp, 'x2'), DATABASE_URL: databaseUrl(targetEmpty), SECRET_KEY: undefined };
    const publicTables = async () => {
      const c = new pg.Client({ connectionString: databaseUrl(targetEmpty) });
      await c.connect();
      try {
        return (await c.query(`select count(*)::int as n from pg_class where relnamespace = 'public'::regnamespace`)).rows[0].n as number;
      } finally {
        await c.end();
      }
    };
    expect(await publicTables()).toBe(0);

    // Corrupted: a flipped byte, a truncated file, a changed row with a valid gzip.
    const flipped = Buffer.from(archive);
    const middle = Math.floor(flipped.length / 2);
    flipped[middle] = (flipped[middle] ?? 0) ^ 0xff;
    await writeFile(join(tmp, 'flipped'), flipped);
    await expect(restoreCommand(emptyTarget, join(tmp, 'flipped'), quiet)).rejects.toThrow(ArchiveError);
    await writeFile(join(tmp, 'truncated'), archive.subarray(0, archive.length - 40));
    await expect(restoreCommand(emptyTarget, join(tmp, 'truncated'), quiet)).rejects.toThrow(/corrupted|truncated/);
    const text = gunzipSync(archive).toString();
    await writeFile(join(tmp, 'edited'), gzipSync(text.replace('"ann"', '"eve"')));
    await expect(restoreCommand(emptyTarget, join(tmp, 'edited'), quiet)).rejects.toThrow(/checksum mismatch/);

    // A valid checksum but rows that do not match the manifest (a crafted or mis-edited file).
    const miscounted = decodeArchive(archive);
    const usersTable = miscounted.manifest.tables.find((t) => t.name === 'users');
    if (usersTable) usersTable.rows += 1;
    await writeFile(join(tmp, 'miscounted'), encodeArchive(miscounted));
    await expect(restoreCommand(emptyTarget, join(tmp, 'miscounted'), quiet)).rejects.toThrow(/users: \d+ rows, the manifest says \d+/);

    // Newer than the code: a migration this build does not know.
    const lines = text.trimEnd().split('\n');
    const manifest = JSON.parse(lines[0] ?? '{}');
    manifest.migrations = { applied: manifest.migrations.applied + 1, tag: '9999_future', when: Date.now() + 1e9 };
    const decoded = decodeArchive(archive);
    await writeFile(join(tmp, 'newer'), encodeArchive({ ...decoded, manifest }));
    await expect(restoreCommand(emptyTarget, join(tmp, 'newer'), quiet)).rejects.toThrow(/newer Palisade \(migration 9999_future/);
    expect(await publicTables()).toBe(0);
    expect(existsSync(join(tmp, 'x2', 'secret.key'))).toBe(false);

    // A backup with the key file, restored where SECRET_KEY names another key.
    const withKey = join(tmp, 'with-key.backup');
    await backupCommand(env, withKey, { withoutKey: false }, quiet);
    await expect(restoreCommand({ ...emptyTarget, SECRET_KEY: 'x'.repeat(40) }, withKey, quiet)).rejects.toThrow(
      /SECRET_KEY is set and differs from the key in the backup/,
    );
    expect(await publicTables()).toBe(0);

    // A backup without the key restores, and says the key is needed.
    const restoredWarnings: string[] = [];
    await restoreCommand(emptyTarget, file, { info: () => undefined, warn: (l) => restoredWarnings.push(l) });
    expect(restoredWarnings.join('\n')).toMatch(/no secret key \(without-key\).*SECRET_KEY/);
    expect(await publicTables()).toBeGreaterThan(10);
  }, 300_000);

  it('takes tables, order and column types from the migrated target, never SQL from the file', async () => {
    const file = join(tmp, 'crafted.backup');
    await backupCommand(await sourceEnv(), file, { withoutKey: true }, quiet);
    const decoded = decodeArchive(await readFile(file));
    const users = decoded.manifest.tables.find((t) => t.name === 'users');
    const username = users?.columns.find((c) => c.name === 'username');
    if (!users || !username) throw new Error('users.username missing from the backup');
    username.type = 'text); drop table users; --';
    await writeFile(file, encodeArchive(decoded));
    const restored = join(tmp, 'crafted-ok');
    await restoreCommand({ DATA_DIR: restored, DATABASE_URL: undefined, SECRET_KEY: KEY }, file, quiet);
    const db = await openDatabase({ dataDir: restored });
    try {
      const names = (await db.db.execute(sql`select username from users order by username`)) as unknown as { rows: { username: string }[] };
      expect(names.rows.map((r) => r.username)).toEqual(expect.arrayContaining(['admin', 'ann', 'bob']));
    } finally {
      await db.close();
    }

    username.name = 'user_name';
    await writeFile(file, encodeArchive(decoded));
    const refused = join(tmp, 'crafted-refused');
    await expect(restoreCommand({ DATA_DIR: refused, DATABASE_URL: undefined, SECRET_KEY: KEY }, file, quiet)).rejects.toThrow(
      /does not match the columns of users/,
    );
    expect(existsSync(join(refused, 'pgdata'))).toBe(false);
  }, 300_000);

  it('restores a backup of an older release: migrated to its level, loaded, then migrated to the current one', async () => {
    const journal = readJournal().entries;
    const older = journal.length - 3;
    const names = [`${runPrefix()}_restore_old_src`, `${runPrefix()}_restore_old_dst`];
    for (const name of names) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
    try {
      const old = await openDatabase({ databaseUrl: databaseUrl(names[0] ?? ''), dataDir: tmp });
      const folder = await migrationsUpTo(older);
      try {
        await runMigrations(old, folder);
        await old.db.execute(sql`insert into users (username, first_name, last_name, email) values ('old', 'O', 'Ld', 'old@example.com')`);
      } finally {
        await rm(folder, { recursive: true, force: true });
        await old.close();
      }
      const file = join(tmp, 'older.backup');
      const env = { DATA_DIR: join(tmp, 'old-data'), DATABASE_URL: databaseUrl(names[0] ?? ''), SECRET_KEY: KEY };
      const manifest = await backupCommand(env, file, { withoutKey: false }, quiet);
      expect(manifest.migrations).toMatchObject({ applied: older, tag: journal[older - 1]?.tag });
      await restoreCommand({ ...env, DATABASE_URL: databaseUrl(names[1] ?? '') }, file, quiet);
      const c = new pg.Client({ connectionString: databaseUrl(names[1] ?? '') });
      await c.connect();
      try {
        expect((await c.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0].n).toBe(journal.length);
        expect((await c.query(`select username from users`)).rows).toEqual([{ username: 'old' }]);
        expect((await c.query(`select n::int from row_counts where name = 'users'`)).rows).toEqual([{ n: 1 }]);
      } finally {
        await c.end();
      }
    } finally {
      for (const name of names) await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    }
  }, 300_000);
});
