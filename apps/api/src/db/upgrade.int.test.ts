import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { publicKeyFromPrivate } from '@palisade/wireguard';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generateSync } from 'otplib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { findMigrationsFolder, runMigrations } from '#src/db/migrate.js';
import { locations, settings } from '#src/db/schema/index.js';
import { parseEnv } from '#src/env.js';
import { ControlRepo } from '#src/gateway-control/control.repo.js';
import { SecretBox, sha256 } from '#src/lib/crypto.js';
import { ADMIN_DATABASE_URL, databaseUrl, runPrefix } from '#test/db-urls.js';

/**
 * Upgrade test (docs/operations.md#upgrades): each fixture in test/fixtures/upgrade is a database
 * written by a released Palisade's own code (scripts/make-upgrade-fixture.mts). It is loaded into
 * an empty database, the CURRENT migrations run on it, and the current API must find everything:
 * sign-ins with the old passwords and TOTP, devices and their addresses, configs, the location
 * key, the gateway token, the sealed SMTP password, ACL, OpenID app, webhook, API token. No table
 * may lose a row, no column a value (only documented data steps may change data).
 */

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/upgrade/', import.meta.url));

interface Fixture {
  revision: string;
  last_migration: string;
  secret_key: string;
  passwords: { admin: string; users: string };
  users: string[];
  group: { name: string; members: string[] };
  location: { id: number; pubkey: string; token: string };
  devices: { id: number; username: string; name: string; pubkey: string; ips: string[] }[];
  network_device: { id: number; pubkey: string; ips: string[] };
  smtp_password: string;
  acl: { rule_id: number; rule_name: string; alias_id: number };
  openid_app: { client_id: string; client_secret: string };
  webhook: { id: number; url: string };
  api_token: { username: string; token: string };
  totp: { username: string; secret: string };
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Every public table's columns (name and type) and a digest of its rows over those columns. */
async function snapshot(handle: DatabaseHandle, columnsOf?: Map<string, string[]>) {
  const columns = new Map<string, string[]>();
  for (const row of rowsOf<{ table_name: string; column_name: string; data_type: string }>(
    await handle.db.execute(sql`select table_name, column_name, data_type from information_schema.columns
      where table_schema = 'public' order by table_name, ordinal_position`),
  )) {
    columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), `${row.column_name} ${row.data_type}`]);
  }
  const tables = new Map<string, { count: number; digest: string }>();
  for (const [table, own] of columnsOf ?? columns) {
    // A table or column the migrations removed is reported by the column check; digest what is left.
    const present = own.map((c) => c.split(' ')[0] ?? '').filter((c) => columns.get(table)?.some((d) => d.startsWith(`${c} `)));
    if (present.length === 0) continue;
    const list = present.map((c) => `"${c}"`).join(', ');
    const [row] = rowsOf<{ count: number; digest: string }>(
      await handle.db.execute(
        sql.raw(`select count(*)::int as count, md5(coalesce(string_agg(r::text, E'\\n' order by r::text), '')) as digest
          from (select ${list} from "${table}") r`),
      ),
    );
    tables.set(table, row ?? { count: -1, digest: '' });
  }
  return { columns, tables };
}

const fixtureNames = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.sql.gz'))
  .map((f) => f.replace(/\.sql\.gz$/, ''))
  .sort();

describe.each(fixtureNames)('upgrade from the release in fixture %s', (name) => {
  const fixture = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Fixture;
  const database = `${runPrefix()}_upgrade_${name.replaceAll('-', '_')}`;
  let admin: pg.Client;
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  let before: Awaited<ReturnType<typeof snapshot>>;
  let after: Awaited<ReturnType<typeof snapshot>>;
  let appliedBefore = 0;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
    const loaded = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', databaseUrl(database)], {
      input: gunzipSync(readFileSync(join(FIXTURES, `${name}.sql.gz`))),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (loaded.status !== 0) throw new Error(`psql could not load ${name}.sql.gz: ${loaded.error ?? ''} ${loaded.stderr}`);
    handle = await openDatabase({ databaseUrl: databaseUrl(database), dataDir: '/nonexistent', poolSize: 4 });
    appliedBefore = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]
      ?.n as number;
    before = await snapshot(handle);
    await runMigrations(handle);
    after = await snapshot(handle, before.columns);
    const env = parseEnv({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', UPDATE_CHECK_ENABLED: 'false', DATA_DIR: '/nonexistent' });
    app = await buildApp({ env, database: handle, logger: false, secretKey: fixture.secret_key });
    await app.ready();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await handle?.close().catch(() => undefined);
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await admin.end();
  });

  const inject = async (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: unknown) =>
    app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as string } : {}) });
  const login = async (username: string, password: string, status = 200) => {
    const res = await inject('POST', '/api/v1/auth', {}, { username, password });
    expect(res.statusCode, `${username}: ${res.body}`).toBe(status);
    return String(res.headers['set-cookie']).split(';')[0] ?? '';
  };
  const asAdmin = async () => ({ cookie: await login('admin', fixture.passwords.admin) });

  it('runs the migrations that release did not have, and keeps every row and value', () => {
    const journal = JSON.parse(readFileSync(join(findMigrationsFolder(), 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const released = journal.entries.findIndex((e) => e.tag === fixture.last_migration);
    expect(released, `${fixture.last_migration} is a committed migration`).toBeGreaterThanOrEqual(0);
    expect(appliedBefore).toBe(released + 1);
    expect(before.tables.size).toBeGreaterThan(30);
    for (const [table, columns] of before.columns) {
      expect(after.columns.get(table), `table ${table} still exists`).toBeDefined();
      for (const column of columns) expect(after.columns.get(table), `column ${table}.${column}`).toContain(column);
    }
    // Same row count and the same values in every column the release had, table by table.
    for (const [table, rows] of before.tables) expect(after.tables.get(table), `rows of ${table}`).toEqual(rows);
    expect(before.tables.get('users')?.count).toBe(fixture.users.length);
  });

  it('signs users in with their old passwords and TOTP', async () => {
    await login('admin', fixture.passwords.admin);
    for (const username of fixture.users.filter((u) => u !== 'admin' && u !== fixture.totp.username)) {
      await login(username, fixture.passwords.users);
    }
    await login('ann', 'not-the-password', 401);
    const pending = await login(fixture.totp.username, fixture.passwords.users, 201);
    const verified = await inject(
      'POST',
      '/api/v1/auth/totp/verify',
      { cookie: pending },
      { code: generateSync({ secret: fixture.totp.secret }) },
    );
    expect(verified.statusCode, verified.body).toBe(200);
    const { cookie } = await asAdmin();
    const users = await inject('GET', '/api/v1/user', { cookie });
    expect((users.json() as { items: { username: string }[] }).items.map((u) => u.username).sort()).toEqual([...fixture.users].sort());
    const members = await inject('GET', `/api/v1/group/${fixture.group.name}`, { cookie });
    expect(members.statusCode).toBe(200);
    for (const member of fixture.group.members) expect(members.body).toContain(member);
  });

  it('keeps devices, their addresses and configs, the location key and the gateway token', async () => {
    const headers = await asAdmin();
    for (const device of fixture.devices) {
      const res = await inject('GET', `/api/v1/device/${device.id}`, headers);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as {
        name: string;
        wireguard_pubkey: string;
        networks: { network_id: number; device_wireguard_ips: string[] }[];
      };
      expect(body).toMatchObject({ name: device.name, wireguard_pubkey: device.pubkey });
      expect(body.networks.find((n) => n.network_id === fixture.location.id)?.device_wireguard_ips).toEqual(device.ips);
      const config = await inject('GET', `/api/v1/network/${fixture.location.id}/device/${device.id}/config`, headers);
      expect(config.statusCode, config.body).toBe(200);
      expect(config.body).toContain(`PublicKey = ${fixture.location.pubkey}`);
      for (const ip of device.ips) expect(config.body).toContain(ip);
    }
    const networkDevice = await inject('GET', `/api/v1/device/network/${fixture.network_device.id}`, headers);
    expect(networkDevice.statusCode, networkDevice.body).toBe(200);
    expect(networkDevice.body).toContain(fixture.network_device.pubkey);
    const networkConfig = await inject('GET', `/api/v1/device/network/${fixture.network_device.id}/config`, headers);
    expect(networkConfig.statusCode, networkConfig.body).toBe(200);
    for (const ip of fixture.network_device.ips) expect(networkConfig.body).toContain(ip);

    const [location] = await handle.db.select().from(locations).where(eq(locations.id, fixture.location.id));
    const box = SecretBox.fromSecret(fixture.secret_key);
    expect(publicKeyFromPrivate(box.decrypt(location?.privateKeyEnc ?? ''))).toBe(fixture.location.pubkey);
    expect(await new ControlRepo(handle.db).locationForToken(sha256(fixture.location.token))).toBe(fixture.location.id);
    const token = await inject('GET', `/api/v1/network/${fixture.location.id}/token`, headers);
    expect((token.json() as { token: string }).token).toBe(fixture.location.token);
  });

  it('keeps settings with the sealed SMTP password, ACL, the OpenID app, the webhook and API tokens', async () => {
    const headers = await asAdmin();
    const [row] = await handle.db.select().from(settings);
    expect(SecretBox.fromSecret(fixture.secret_key).decrypt(row?.smtpPassword ?? '')).toBe(fixture.smtp_password);
    expect((await inject('GET', '/api/v1/settings', headers)).json()).toMatchObject({ smtp_server: 'smtp.example.com' });

    const rule = await inject('GET', `/api/v1/acl/rule/${fixture.acl.rule_id}`, headers);
    expect(rule.statusCode, rule.body).toBe(200);
    expect(rule.json()).toMatchObject({ name: fixture.acl.rule_name, state: 'applied', aliases: [fixture.acl.alias_id] });
    expect((await inject('GET', `/api/v1/acl/alias/${fixture.acl.alias_id}`, headers)).statusCode).toBe(200);

    const secret = await inject('GET', `/api/v1/oauth/${fixture.openid_app.client_id}/secret`, headers);
    expect(secret.statusCode, secret.body).toBe(200);
    expect(secret.body).toContain(fixture.openid_app.client_secret);

    const webhook = await inject('GET', `/api/v1/webhook/${fixture.webhook.id}`, headers);
    expect(webhook.statusCode, webhook.body).toBe(200);
    expect(webhook.json()).toMatchObject({ url: fixture.webhook.url });

    const me = await inject('GET', '/api/v1/me', { authorization: `Bearer ${fixture.api_token.token}` });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ username: fixture.api_token.username });
  });
});
