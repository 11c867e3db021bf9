import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '#src/lib/crypto.js';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '#test/helpers.js';

/**
 * Logs never hold secrets: with the production logger configuration at level trace, a session of
 * logins and password changes leaves no password, no session token and no cookie in the log text.
 */
describe('logs never contain secrets', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'trace' }, { logger: undefined, logStream: { write: (line: string) => void lines.push(line) } });
  });
  afterAll(() => t.close());

  it('login, user creation, set password and change password', async () => {
    const secrets = {
      created: 'Cr3ated-Secret!pw',
      set: 'S3t-By-Admin!pw',
      changed: 'Ch4nged-By-User!pw',
      weak: 'weak-secret-no-digit',
      wrong: 'Wr0ng-Guess!pw',
    };
    const tokens: string[] = [];
    const remember = (setCookie: unknown) => {
      for (const c of [setCookie].flat()) {
        const value = /^palisade_session=([^;]+)/.exec(String(c))?.[1];
        if (value) tokens.push(value);
      }
    };

    const login = async (username: string, password: string) => {
      const res = await t.request('POST', '/api/v1/auth', { payload: { username, password } });
      remember(res.headers['set-cookie']);
      return res;
    };
    expect((await login('admin', secrets.wrong)).statusCode).toBe(401);
    const adminLogin = await login('admin', ADMIN_PASSWORD);
    expect(adminLogin.statusCode).toBe(200);
    const admin = `palisade_session=${tokens.at(-1)}`;

    const created = await t.request('POST', '/api/v1/user', {
      cookie: admin,
      payload: { username: 'logged', first_name: 'L', last_name: 'G', email: 'logged@example.com', password: secrets.created },
    });
    expect(created.statusCode).toBe(201);
    const weak = await t.request('POST', '/api/v1/user', {
      cookie: admin,
      payload: { username: 'weakling', first_name: 'W', last_name: 'K', email: 'weak@example.com', password: secrets.weak },
    });
    expect(weak.statusCode).toBe(400);
    expect(
      (await t.request('PUT', '/api/v1/user/logged/password', { cookie: admin, payload: { new_password: secrets.set } })).statusCode,
    ).toBe(204);
    expect(
      (await t.request('PUT', '/api/v1/user/logged/password', { cookie: admin, payload: { new_password: secrets.weak } })).statusCode,
    ).toBe(400);

    const userLogin = await login('logged', secrets.set);
    expect(userLogin.statusCode).toBe(200);
    const user = `palisade_session=${tokens.at(-1)}`;
    const wrongOld = await t.request('PUT', '/api/v1/user/change_password', {
      cookie: user,
      payload: { old_password: secrets.wrong, new_password: secrets.changed },
    });
    expect(wrongOld.statusCode).toBe(400);
    const changed = await t.request('PUT', '/api/v1/user/change_password', {
      cookie: user,
      payload: { old_password: secrets.set, new_password: secrets.changed },
    });
    expect(changed.statusCode).toBe(204);
    expect((await login('logged', secrets.changed)).statusCode).toBe(200);
    // Malformed JSON carrying a password, and a 500-free validation error echoing nothing.
    await t.request('POST', '/api/v1/auth', {
      headers: { 'content-type': 'application/json' },
      payload: `{"username":"admin","password":"${secrets.wrong}"`,
    });
    await t.request('POST', '/api/v1/auth/logout', { cookie: user });

    const text = lines.join('');
    // The capture works and is at trace level: requests were logged.
    expect(lines.length).toBeGreaterThan(10);
    expect(t.app.log.level).toBe('trace');
    expect(text).toContain('/api/v1/user/change_password');
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    for (const [name, secret] of Object.entries({ ...secrets, admin: ADMIN_PASSWORD })) {
      expect(text.includes(secret), `log contains the ${name} password`).toBe(false);
    }
    for (const token of tokens) expect(text.includes(token), 'log contains a session token').toBe(false);
    expect(text).not.toMatch(/palisade_session=/);
    expect(text).not.toMatch(/\$argon2/);

    // The same session as events (ADR-005): every column of every row, details JSON included.
    const result = await t.database.db.execute(sql`select type, e::text as row from events e order by id`);
    const events = (result as unknown as { rows: { type: string; row: string }[] }).rows;
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'auth.login_failed',
        'auth.login_succeeded',
        'user.created',
        'user.password_set',
        'user.password_changed',
        'auth.logout',
      ]),
    );
    const stored = events.map((e) => e.row).join('\n');
    for (const [name, secret] of Object.entries({ ...secrets, admin: ADMIN_PASSWORD })) {
      expect(stored.includes(secret), `events contain the ${name} password`).toBe(false);
    }
    for (const token of tokens) {
      expect(stored.includes(token), 'events contain a session token').toBe(false);
      expect(stored.includes(sha256(token)), 'events contain a session id').toBe(false);
    }
    expect(stored).not.toMatch(/\$argon2/);
  });

  it('writes one access line per request, with method, URL, status and duration', async () => {
    lines.length = 0;
    const res = await t.request('GET', '/api/v1/health', { headers: { 'x-request-id': 'access-line-1' } });
    expect(res.statusCode).toBe(200);
    const mine = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === 'access-line-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/v1/health' }, res: { statusCode: 200 } });
    expect(typeof mine[0]?.responseTime).toBe('number');
  });

  it('a failing query is logged without its parameters (password hashes, names)', async () => {
    lines.length = 0;
    const admin = await t.loginAdmin();
    await t.database.db.execute(
      sql.raw(`create or replace function palisade_test_explode() returns trigger language plpgsql as $$
      begin if new.first_name = 'Explode' then raise exception 'simulated database failure'; end if; return new; end $$;
      drop trigger if exists palisade_test_explode on users;
      create trigger palisade_test_explode before insert or update on users for each row execute function palisade_test_explode()`),
    );
    try {
      const res = await t.request('POST', '/api/v1/user', {
        cookie: admin,
        payload: {
          username: 'boom',
          first_name: 'Explode',
          last_name: 'Secret-Lastname',
          email: 'boom@example.com',
          password: 'B00m-Secret!pw',
        },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ code: 'internal', detail: 'Error has occurred.' });
      expect(res.body).not.toMatch(/simulated|insert into/);
    } finally {
      await t.database.db.execute(
        sql.raw('drop trigger if exists palisade_test_explode on users; drop function if exists palisade_test_explode()'),
      );
    }
    const text = lines.join('');
    expect(text).toContain('"level":50');
    expect(text).toContain('simulated database failure');
    expect(text).not.toMatch(/\$argon2/);
    expect(text).not.toContain('B00m-Secret!pw');
    expect(text).not.toContain('Secret-Lastname');
  });
});
