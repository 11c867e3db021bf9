/**
 * Makes an upgrade fixture: a database written by a released Palisade's own code, for
 * `src/db/upgrade.int.test.ts` (docs/operations.md#upgrades).
 *
 *   cd apps/api && node --import tsx scripts/make-upgrade-fixture.mts <git-revision> <name>
 *
 * (with PostgreSQL on FIXTURE_DATABASE_URL, default
 * postgres://palisade:palisade@127.0.0.1:5432/postgres, a role that may create databases.)
 *
 * It checks the revision out into a temporary git worktree, installs its dependencies
 * (`pnpm install --frozen-lockfile`), starts THAT revision's API on a fresh database with a fixed
 * SECRET_KEY, fills it through its HTTP API (users with passwords and groups, a TOTP user, a
 * location with devices and a network device, the gateway token, settings with a sealed SMTP
 * password, an ACL alias and rule, an OpenID app, a webhook, an API token), stops it, and writes
 *
 *   apps/api/test/fixtures/upgrade/<name>.sql.gz  pg_dump --no-owner --no-privileges (plain SQL,
 *                                                 the drizzle schema's migration table included)
 *   apps/api/test/fixtures/upgrade/<name>.json    what the test expects (test secrets only)
 *   apps/api/drizzle/meta/released.json           the release's migrations, frozen (sha256)
 *
 * then drops the database and removes the worktree. Run it for the last commit of each release.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { generateKeyPair } from '@palisade/wireguard';
import { generateSync } from 'otplib';
import pg from 'pg';

const SECRET_KEY = 'upgrade-fixture-secret-key-0123456789abcdefghijkl';
const ADMIN_PASSWORD = 'Admin123!upgrade';
const USER_PASSWORD = 'Passw0rd!upgrade';
const SMTP_PASSWORD = 'smtp-Upgrade-pass';
/** Port 9 (discard): nothing answers; the webhook only has to exist. */
const WEBHOOK_URL = 'http://127.0.0.1:9/palisade-hook';
const ADMIN_URL = process.env.FIXTURE_DATABASE_URL ?? 'postgres://palisade:palisade@127.0.0.1:5432/postgres';

const [revision, name] = process.argv.slice(2);
if (!revision || !name || !/^[a-z0-9][a-z0-9_-]*$/.test(name)) {
  process.stderr.write('usage: make-upgrade-fixture.mts <git-revision> <name: a-z 0-9 _ ->\n');
  process.exit(2);
}

const repo = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const commit = execFileSync('git', ['rev-parse', `${revision}^{commit}`], { cwd: repo, encoding: 'utf8' }).trim();
const out = join(repo, 'apps/api/test/fixtures/upgrade');
const work = mkdtempSync(join(tmpdir(), `palisade-upgrade-${name}-`));
const tree = join(work, 'tree');
const database = `palisade_upgrade_fixture_${name.replaceAll('-', '_')}`;
const databaseUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
})();

const log = (message: string) => process.stderr.write(`[fixture ${name}] ${message}\n`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

interface Api {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: unknown }>;
}

function apiAt(base: string, cookie = ''): Api {
  return {
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown = text;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {}
      return { status: res.status, json };
    },
  };
}

async function expectStatus<T = unknown>(what: string, res: Promise<{ status: number; json: unknown }>, ...ok: number[]): Promise<T> {
  const { status, json } = await res;
  if (!ok.includes(status)) throw new Error(`${what}: ${status} ${JSON.stringify(json)}`);
  return json as T;
}

async function login(base: string, username: string, password: string): Promise<{ cookie: string; status: number }> {
  const res = await fetch(`${base}/api/v1/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '', status: res.status };
}

const totp = (secret: string) => generateSync({ secret });

/** Fills the running API through its HTTP routes; returns what the upgrade test expects. */
async function fill(base: string) {
  const admin = apiAt(base, (await login(base, 'admin', ADMIN_PASSWORD)).cookie);
  await expectStatus('group', admin.call('POST', '/api/v1/group', { name: 'staff' }), 201);
  for (const username of ['ann', 'bob', 'cyd']) {
    await expectStatus(
      `user ${username}`,
      admin.call('POST', '/api/v1/user', {
        username,
        first_name: username.toUpperCase(),
        last_name: 'Upgrade',
        email: `${username}@example.com`,
        password: USER_PASSWORD,
      }),
      201,
    );
  }
  await expectStatus('member', admin.call('POST', '/api/v1/group/staff', { username: 'ann' }), 200);

  const location = await expectStatus<{ id: number; pubkey: string }>(
    'location',
    admin.call('POST', '/api/v1/network', {
      name: 'office',
      address: ['10.77.0.1/24'],
      endpoint: 'vpn.example.com',
      port: 51820,
      dns: ['10.77.0.1'],
      allowed_ips: ['10.77.0.0/24'],
      allowed_groups: [],
    }),
    201,
  );
  const devices: { id: number; username: string; name: string; pubkey: string; ips: string[] }[] = [];
  for (const [username, deviceName] of [
    ['ann', 'ann-laptop'],
    ['ann', 'ann-phone'],
    ['bob', 'bob-laptop'],
  ] as const) {
    const pubkey = generateKeyPair().publicKey;
    const made = await expectStatus<{ device: { id: number }; configs: { network_id: number; assigned_ips: string[] }[] }>(
      `device ${deviceName}`,
      admin.call('POST', `/api/v1/device/${username}`, { name: deviceName, wireguard_pubkey: pubkey }),
      201,
    );
    devices.push({ id: made.device.id, username, name: deviceName, pubkey, ips: made.configs[0]?.assigned_ips ?? [] });
  }
  const networkDevicePubkey = generateKeyPair().publicKey;
  const networkDevice = await expectStatus<{ device: { id: number } } & { id?: number }>(
    'network device',
    admin.call('POST', '/api/v1/device/network', {
      name: 'printer',
      location_id: location.id,
      assigned_ips: ['10.77.0.50'],
      wireguard_pubkey: networkDevicePubkey,
    }),
    201,
  );
  const token = await expectStatus<{ token: string }>('gateway token', admin.call('GET', `/api/v1/network/${location.id}/token`), 200);
  await expectStatus(
    'settings',
    admin.call('PATCH', '/api/v1/settings', {
      smtp_server: 'smtp.example.com',
      smtp_port: 587,
      smtp_password: SMTP_PASSWORD,
      egress_allow_cidrs: ['127.0.0.0/8'],
    }),
    200,
  );
  const alias = await expectStatus<{ id: number }>(
    'acl alias',
    admin.call('POST', '/api/v1/acl/alias', {
      name: 'db',
      kind: 'destination',
      destinations: ['10.9.0.0/24'],
      ports: ['5432'],
      protocols: ['tcp'],
    }),
    201,
  );
  const rule = await expectStatus<{ id: number }>(
    'acl rule',
    admin.call('POST', '/api/v1/acl/rule', { name: 'staff to db', all_locations: true, allow_all_users: true, aliases: [alias.id] }),
    201,
  );
  await expectStatus('acl rule apply', admin.call('PUT', '/api/v1/acl/rule/apply', { rules: [rule.id] }), 204);
  const app = await expectStatus<{ client_id: string; client_secret: string }>(
    'openid app',
    admin.call('POST', '/api/v1/oauth', {
      name: 'Grafana',
      redirect_uris: ['https://grafana.example.com/login/generic_oauth'],
      scopes: ['openid', 'email'],
    }),
    201,
  );
  const webhook = await expectStatus<{ id: number }>(
    'webhook',
    admin.call('POST', '/api/v1/webhook', { url: WEBHOOK_URL, token: 'hook-token', triggers: ['user.created'] }),
    201,
  );
  const ann = apiAt(base, (await login(base, 'ann', USER_PASSWORD)).cookie);
  const apiToken = await expectStatus<{ id: number; token: string }>(
    'api token',
    ann.call('POST', '/api/v1/user/ann/api_token', { name: 'ci deploy' }),
    201,
  );
  const cyd = apiAt(base, (await login(base, 'cyd', USER_PASSWORD)).cookie);
  const init = await expectStatus<{ secret: string }>('totp init', cyd.call('POST', '/api/v1/auth/totp/init'), 200);
  await expectStatus('totp enable', cyd.call('POST', '/api/v1/auth/totp', { code: totp(init.secret) }), 200);

  return {
    users: ['admin', 'ann', 'bob', 'cyd'],
    group: { name: 'staff', members: ['ann'] },
    location: { id: location.id, pubkey: location.pubkey, token: token.token },
    devices,
    network_device: { id: networkDevice.device?.id ?? networkDevice.id, pubkey: networkDevicePubkey, ips: ['10.77.0.50'] },
    smtp_password: SMTP_PASSWORD,
    acl: { rule_id: rule.id, rule_name: 'staff to db', alias_id: alias.id },
    openid_app: { client_id: app.client_id, client_secret: app.client_secret },
    webhook: { id: webhook.id, url: WEBHOOK_URL },
    api_token: { username: 'ann', token: apiToken.token },
    totp: { username: 'cyd', secret: init.secret },
  };
}

/**
 * Adds the release's migrations (file name → sha256 of its text) to drizzle/meta/released.json,
 * which src/db/migrations-guard.test.ts compares with the committed files. Stops when a migration
 * the list already holds differs from the release's text, or the current tree's file differs.
 */
function freezeReleasedMigrations(releaseDrizzle: string): string | undefined {
  const listFile = join(repo, 'apps/api/drizzle/meta/released.json');
  const list = JSON.parse(readFileSync(listFile, 'utf8')) as { comment: string; migrations: Record<string, string> };
  const journal = JSON.parse(readFileSync(join(releaseDrizzle, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
  for (const { tag } of journal.entries) {
    const file = `${tag}.sql`;
    const released = hash(join(releaseDrizzle, file));
    const current = hash(join(repo, 'apps/api/drizzle', file));
    if (current !== released) throw new Error(`${file} was edited after the release ${commit}: restore its released text`);
    if (list.migrations[file] !== undefined && list.migrations[file] !== released) {
      throw new Error(`${file} differs from drizzle/meta/released.json`);
    }
    list.migrations[file] = released;
  }
  writeFileSync(listFile, `${JSON.stringify(list, null, 2)}\n`);
  return journal.entries.at(-1)?.tag;
}

async function waitReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) before it answered`);
    const status = await fetch(`${base}/api/v1/settings_essentials`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the API did not answer within 120 s');
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

let child: ChildProcess | undefined;
let worktreeAdded = false;
try {
  log(`worktree of ${commit} in ${tree}`);
  execFileSync('git', ['worktree', 'add', '--detach', tree, commit], { cwd: repo, stdio: 'inherit' });
  worktreeAdded = true;
  execFileSync('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: tree, stdio: 'inherit' });
  const lastTag = freezeReleasedMigrations(join(tree, 'apps/api/drizzle'));

  await withAdmin(async (c) => {
    await c.query(`drop database if exists ${database} with (force)`);
    await c.query(`create database ${database}`);
  });
  const [port, grpcPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  mkdirSync(join(work, 'data'));
  log(`starting its API on ${base} (database ${database})`);
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(tree, 'apps/api'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? work,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATA_DIR: join(work, 'data'),
      SECRET_KEY,
      ADMIN_PASSWORD,
      HOST: '127.0.0.1',
      PORT: String(port),
      GRPC_PORT: String(grpcPort),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      UPDATE_CHECK_ENABLED: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitReady(base, child);
  const expected = await fill(base);
  await stop(child);

  log('pg_dump');
  const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--format=plain', `--dbname=${databaseUrl}`], {
    maxBuffer: 256 * 1024 * 1024,
  });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${name}.sql.gz`), gzipSync(dump, { level: 9 }));
  const fixture = {
    comment: `Made by apps/api/scripts/make-upgrade-fixture.mts from ${commit}; test secrets only.`,
    revision: commit,
    last_migration: lastTag,
    secret_key: SECRET_KEY,
    passwords: { admin: ADMIN_PASSWORD, users: USER_PASSWORD },
    ...expected,
  };
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
  log(`wrote ${join(out, `${name}.sql.gz`)} and ${name}.json (last migration ${lastTag})`);
} finally {
  if (child) await stop(child).catch(() => undefined);
  await withAdmin((c) => c.query(`drop database if exists ${database} with (force)`)).catch(() => undefined);
  if (worktreeAdded) execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: repo, stdio: 'inherit' });
  rmSync(work, { recursive: true, force: true });
}
