import { passwordSchema } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, generatePassword } from '#src/modules/users/bootstrap.service.js';
import { createTestApp, emptyDatabase, type TestApp } from '#test/helpers.js';

describe('first-start bootstrap', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const count = async (table: string) =>
    (t.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`)) as Promise<unknown>).then(
      (r) => (r as { rows: { n: number }[] }).rows[0]?.n,
    );
  const empty = () => emptyDatabase(t.database);

  it('generated passwords satisfy the password rules and differ', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generatePassword();
      expect(passwordSchema.safeParse(password).success, password).toBe(true);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });

  it('creates settings, group admin and user admin once; the generated password signs in', async () => {
    await empty();
    const result = await bootstrap(t.database.db, undefined);
    expect(result.createdAdmin).toBe(true);
    expect(result.generatedPassword).toEqual(expect.any(String));
    const login = await t.request('POST', '/api/v1/auth', { payload: { username: 'admin', password: result.generatedPassword } });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ username: 'admin', is_admin: true, groups: ['admin'] });
    expect(await bootstrap(t.database.db, undefined)).toEqual({ createdAdmin: false });
    expect(await count('users')).toBe(1);
  });

  it('with ADMIN_PASSWORD set, uses it and reports no generated password', async () => {
    await empty();
    expect(await bootstrap(t.database.db, 'Given-Passw0rd!')).toEqual({ createdAdmin: true });
    expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'admin', password: 'Given-Passw0rd!' } })).statusCode).toBe(200);
  });

  it('two processes starting together create the admin once', async () => {
    await empty();
    const results = await Promise.all([1, 2, 3, 4].map(() => bootstrap(t.database.db, 'Given-Passw0rd!')));
    expect(results.filter((r) => r.createdAdmin)).toHaveLength(1);
    expect(await count('users')).toBe(1);
    expect(await count('groups')).toBe(1);
    expect(await count('settings')).toBe(1);
    expect(await count('group_members')).toBe(1);
  });
});
