import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation, newKey } from '#test/network-fixtures.js';

/** Paged lists take their unsearched totals from trigger-kept counts; they must equal count(*). */
describe('list totals', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const scalar = async (query: ReturnType<typeof sql>) =>
    Number(((await t.database.db.execute(query)) as unknown as { rows: { n: string }[] }).rows[0]?.n);
  const listedTotal = async (query: Record<string, string> = {}) => {
    const res = await t.request('GET', '/api/v1/user', { cookie: admin, query: { per_page: '5', ...query } });
    expect(res.statusCode).toBe(200);
    return (res.json() as { total: number }).total;
  };
  const expectTrue = async () => {
    const actual = await scalar(sql`select count(*) as n from users`);
    expect(await listedTotal()).toBe(actual);
    expect(await scalar(sql`select n from row_counts where name = 'users'`)).toBe(actual);
  };

  it('follows creates and deletes through the API', async () => {
    await expectTrue();
    for (const name of ['ann', 'bob', 'cyd']) await t.newUser(admin, name);
    await expectTrue();
    expect((await t.request('DELETE', '/api/v1/user/bob', { cookie: admin })).statusCode).toBe(204);
    await expectTrue();
    expect(await listedTotal()).toBe(3);
  });

  it('follows bulk SQL, concurrent inserts and a rolled-back transaction', async () => {
    await t.database.db.execute(sql`insert into users (username, first_name, last_name, email)
      select 'bulk' || i, 'B', 'U', 'bulk' || i || '@example.com' from generate_series(1, 250) i`);
    await expectTrue();
    await Promise.all(Array.from({ length: 20 }, (_, i) => t.newUser(admin, `par${i}`)));
    await expectTrue();
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`delete from users where username like 'bulk%'`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expectTrue();
    await t.database.db.execute(sql`delete from users where username like 'bulk1%'`);
    await expectTrue();
  });

  it('heals when the count row is missing, and a past-the-end page still reports the total', async () => {
    await t.newUser(admin, 'dee');
    await t.database.db.execute(sql`delete from row_counts`);
    expect(await listedTotal()).toBe(2);
    await t.newUser(admin, 'eve');
    await expectTrue();
    expect(await listedTotal({ page: '40' })).toBe(3);
    expect(await listedTotal({ search: 'ev' })).toBe(1);
  });

  it('device list: follows user and network devices separately, and the page shows owners and addresses', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.90.0.1/24'] });
    const deviceTotal = async (query: Record<string, string> = {}) => {
      const res = await t.request('GET', '/api/v1/device', { cookie: admin, query: { per_page: '2', ...query } });
      expect(res.statusCode).toBe(200);
      return res.json() as { total: number; items: { name: string; username?: string; networks: { device_wireguard_ips: string[] }[] }[] };
    };
    const userDevices = () => scalar(sql`select count(*) as n from devices where kind = 'user'`);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await addDevice(t.app, admin, 'admin', `mine${i}`));
    const pinned = await t.request('POST', '/api/v1/device/network', {
      cookie: admin,
      payload: { name: 'router', location_id: loc.id, assigned_ips: ['10.90.0.50'], wireguard_pubkey: newKey() },
    });
    expect(pinned.statusCode).toBe(201);
    const page = await deviceTotal();
    expect(page.total).toBe(3);
    expect(page.total).toBe(await userDevices());
    expect(page.items.map((d) => [d.name, d.username, d.networks[0]?.device_wireguard_ips])).toEqual([
      ['mine2', 'admin', ['10.90.0.4']],
      ['mine1', 'admin', ['10.90.0.3']],
    ]);
    expect(await scalar(sql`select n from row_counts where name = 'devices:network'`)).toBe(1);
    expect((await t.request('DELETE', `/api/v1/device/${made[0]?.device.id}`, { cookie: admin })).statusCode).toBe(204);
    expect((await deviceTotal()).total).toBe(2);
    expect((await deviceTotal({ search: 'mine2' })).total).toBe(1);
    expect((await deviceTotal({ page: '9' })).total).toBe(2);
    await t.database.db.execute(sql`delete from row_counts where name like 'devices:%'`);
    expect((await deviceTotal()).total).toBe(2);
    await addDevice(t.app, admin, 'admin', 'mine9');
    expect((await deviceTotal()).total).toBe(3);
    expect(await scalar(sql`select n from row_counts where name = 'devices:user'`)).toBe(3);
  });
});
