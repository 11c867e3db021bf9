import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, updateBody } from '#test/helpers.js';
import { addDevice, createLocation, newKey } from '#test/network-fixtures.js';

/**
 * Writers that change addresses lock the locations they may touch first, in id order (see
 * lockLocationsOf* in device-placement.ts). Before, a device creation (device row, then row
 * counter, then the locations) and a device deletion (gateway state and row counter through
 * triggers, then the locations through foreign-key checks) took the same locks in opposite
 * orders, and concurrent writes failed with 500s from PostgreSQL's deadlock detector.
 */
describe('concurrent writes to addresses', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const inject = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

  it('device creations and deletions, network devices, group changes and user deletions never deadlock', async () => {
    expect((await inject('POST', '/api/v1/group', { name: 'lock-order' })).statusCode).toBe(201);
    const open = await createLocation(t.app, admin, { address: ['10.90.0.1/20'], allowed_ips: ['10.90.0.0/20'] });
    await createLocation(t.app, admin, {
      address: ['10.91.0.1/22', 'fd91::1/64'],
      allowed_ips: ['10.91.0.0/22'],
      allowed_groups: ['lock-order'],
    });
    const users = Array.from({ length: 10 }, (_, i) => `lo${i}`);
    for (const u of users) {
      await t.newUser(admin, u);
      expect((await inject('POST', '/api/v1/group/lock-order', { username: u })).statusCode).toBe(200);
    }
    const devices = new Map<string, number[]>(users.map((u) => [u, []]));
    for (const u of users) for (let i = 0; i < 3; i++) devices.get(u)?.push((await addDevice(t.app, admin, u)).device.id as number);
    const networkDevices: number[] = [];
    const statuses: string[] = [];
    const record = async (label: string, expected: number, res: Promise<{ statusCode: number; body: string }>) => {
      const r = await res;
      if (r.statusCode !== expected) statuses.push(`${label}: ${r.statusCode} ${r.body.slice(0, 120)}`);
      return r;
    };
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        users.flatMap((u, i) => {
          const own = devices.get(u) ?? [];
          const victim = own.shift();
          const ops = [
            record('create device', 201, inject('POST', `/api/v1/device/${u}`, { name: `r${round}`, wireguard_pubkey: newKey() })),
            record(
              'group change',
              (round + i) % 2 === 0 ? 204 : 200,
              (round + i) % 2 === 0
                ? inject('DELETE', `/api/v1/group/lock-order/user/${u}`)
                : inject('POST', '/api/v1/group/lock-order', { username: u }),
            ),
            record(
              'create network device',
              201,
              inject('POST', '/api/v1/device/network', { name: `n${round}-${u}`, location_id: open.id, wireguard_pubkey: newKey() }),
            ).then((r) => r.statusCode === 201 && networkDevices.push(JSON.parse(r.body).device.id)),
          ];
          if (victim !== undefined) ops.push(record('delete device', 204, inject('DELETE', `/api/v1/device/${victim}`)));
          const nd = networkDevices.shift();
          if (nd !== undefined) ops.push(record('delete network device', 204, inject('DELETE', `/api/v1/device/network/${nd}`)));
          return ops;
        }),
      );
    }
    // Users with devices in both locations, deleted while others create devices.
    await Promise.all([
      ...users.slice(0, 5).map((u) => record('delete user', 204, inject('DELETE', `/api/v1/user/${u}`))),
      ...users
        .slice(5)
        .map((u) => record('create device', 201, inject('POST', `/api/v1/device/${u}`, { name: 'last', wireguard_pubkey: newKey() }))),
    ]);
    expect(statuses).toEqual([]);
  });

  it('group replacements, bulk assignments and user group edits never deadlock with device writes', async () => {
    expect((await inject('POST', '/api/v1/group', { name: 'lock-bulk' })).statusCode).toBe(201);
    const open = await createLocation(t.app, admin, { address: ['10.92.0.1/20'], allowed_ips: ['10.92.0.0/20'] });
    await createLocation(t.app, admin, { address: ['10.93.0.1/22'], allowed_ips: ['10.93.0.0/22'], allowed_groups: ['lock-bulk'] });
    const users = Array.from({ length: 8 }, (_, i) => `lb${i}`);
    const bodies = new Map<string, Record<string, unknown>>();
    for (const u of users) bodies.set(u, await t.newUser(admin, u));
    const devices = new Map<string, number[]>(users.map((u) => [u, []]));
    for (const u of users) for (let i = 0; i < 2; i++) devices.get(u)?.push((await addDevice(t.app, admin, u)).device.id as number);
    const statuses: string[] = [];
    const record = async (label: string, expected: number, res: Promise<{ statusCode: number; body: string }>) => {
      const r = await res;
      if (r.statusCode !== expected) statuses.push(`${label}: ${r.statusCode} ${r.body.slice(0, 120)}`);
    };
    const put = (url: string, payload: object) => t.app.inject({ method: 'PUT', url, headers: { cookie: admin }, payload });
    for (let round = 0; round < 4; round++) {
      await Promise.all([
        ...users.flatMap((u) => {
          const victim = devices.get(u)?.shift();
          return [
            record('create device', 201, inject('POST', `/api/v1/device/${u}`, { name: `b${round}`, wireguard_pubkey: newKey() })),
            record(
              'create network device',
              201,
              inject('POST', '/api/v1/device/network', { name: `b${round}-${u}`, location_id: open.id, wireguard_pubkey: newKey() }),
            ),
            ...(victim === undefined ? [] : [record('delete device', 204, inject('DELETE', `/api/v1/device/${victim}`))]),
          ];
        }),
        record(
          'replace members',
          200,
          put('/api/v1/group/lock-bulk', { name: 'lock-bulk', members: users.filter((_, i) => (i + round) % 2 === 0) }),
        ),
        record('assign', 204, inject('POST', '/api/v1/groups-assign', { groups: ['lock-bulk'], users: users.slice(4) })),
        ...users
          .slice(0, 3)
          .map((u) =>
            record(
              'user groups',
              200,
              put(`/api/v1/user/${u}`, updateBody(bodies.get(u) ?? {}, { groups: round % 2 ? [] : ['lock-bulk'] })),
            ),
          ),
      ]);
    }
    expect(statuses).toEqual([]);
  });
});
