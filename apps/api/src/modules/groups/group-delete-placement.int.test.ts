import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation } from '#test/network-fixtures.js';

/**
 * Deleting the only allowed group of a location leaves it with none, which means everyone may
 * use it: every user device gets its address there, as a device created afterwards would. Before,
 * only the group's former members were re-placed, and other users' devices had no address in a
 * location they were allowed to use (the gateway did not know them).
 */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAdmin();
});
afterAll(() => t.close());

const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

it('a location whose only allowed group is deleted takes every user device', async () => {
  expect((await inject('POST', '/api/v1/group', { name: 'only' })).statusCode).toBe(201);
  expect((await inject('POST', '/api/v1/group', { name: 'other' })).statusCode).toBe(201);
  const opened = await createLocation(t.app, admin, { address: ['10.94.0.1/24'], allowed_groups: ['only'] });
  const kept = await createLocation(t.app, admin, { address: ['10.95.0.1/24'], allowed_groups: ['only', 'other'] });
  await t.newUser(admin, 'insider');
  await t.newUser(admin, 'outsider');
  expect((await inject('POST', '/api/v1/group/only', { username: 'insider' })).statusCode).toBe(200);
  const inside = (await addDevice(t.app, admin, 'insider')).device.id as number;
  const outside = (await addDevice(t.app, admin, 'outsider')).device.id as number;

  expect((await inject('DELETE', '/api/v1/group/only')).statusCode).toBe(204);
  expect((await inject('GET', `/api/v1/network/${opened.id}`)).json().allowed_groups).toEqual([]);
  const rows = (await t.database.db.execute(`select device_id, location_id from device_ips order by 1, 2`)) as unknown as {
    rows: { device_id: number; location_id: number }[];
  };
  expect(rows.rows).toEqual(
    [
      { device_id: inside, location_id: opened.id },
      { device_id: outside, location_id: opened.id },
    ].sort((a, b) => a.device_id - b.device_id),
  );
  expect(rows.rows.some((r) => r.location_id === kept.id)).toBe(false);
});
