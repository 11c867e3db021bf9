import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventsAfter, lastEventId } from '#test/event-rows.js';
import { createTestApp, type HttpMethod, resetDatabase, type TestApp } from '#test/helpers.js';
import { createLocation, newKey } from '#test/network-fixtures.js';

/** User device routes record their event with the actor, the client address and the device. */
describe('user device events', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  let aliceId: number;
  let location: { id: number; name: string };
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
    aliceId = (await t.request('GET', '/api/v1/user/alice', { cookie: admin })).json().id;
    location = await createLocation(t.app, admin, { address: ['10.90.0.1/24'] });
  });
  afterAll(() => t.close());

  const IP = '198.51.100.23';
  const send = (cookie: string, method: HttpMethod, url: string, payload?: unknown) =>
    t.request(method, url, { cookie, payload, remoteAddress: IP, headers: { 'user-agent': 'device-events/1' } });
  async function recorded(act: () => Promise<{ statusCode: number }>, status: number) {
    const mark = await lastEventId(t.database.db);
    const res = await act();
    expect(res.statusCode).toBe(status);
    return eventsAfter(t.database.db, mark);
  }
  const actor = (username: string) => ({
    actor_type: 'user',
    username,
    user_id: expect.any(Number),
    ip: IP,
    user_agent: 'device-events/1',
    module: 'devices',
  });

  it('the owner adds, changes, downloads and deletes a device; the entries name the device', async () => {
    let id = 0;
    const added = await recorded(async () => {
      const res = await send(alice, 'POST', '/api/v1/device/alice', { name: 'laptop', wireguard_pubkey: newKey() });
      id = res.json().device?.id;
      return res;
    }, 201);
    const device = { object_type: 'device', object_id: String(id), device_id: id };
    expect(added).toEqual([
      expect.objectContaining({
        ...actor('alice'),
        ...device,
        user_id: aliceId,
        type: 'device.added',
        object_name: 'laptop',
        device_name: 'laptop',
        subject_user_id: null,
        details: { owner: 'alice' },
      }),
    ]);

    const modified = await recorded(
      () => send(alice, 'PUT', `/api/v1/device/${id}`, { name: 'work-laptop', wireguard_pubkey: newKey() }),
      200,
    );
    expect(modified).toEqual([
      expect.objectContaining({
        ...actor('alice'),
        ...device,
        type: 'device.modified',
        object_name: 'work-laptop',
        device_name: 'work-laptop',
        details: { changed: ['name', 'wireguard_pubkey'], previous_name: 'laptop' },
      }),
    ]);

    const downloaded = await recorded(() => send(alice, 'GET', `/api/v1/network/${location.id}/device/${id}/config`), 200);
    expect(downloaded).toEqual([
      expect.objectContaining({
        ...actor('alice'),
        ...device,
        type: 'device.config_downloaded',
        details: { location_id: location.id, location_name: location.name },
      }),
    ]);

    const deleted = await recorded(() => send(alice, 'DELETE', `/api/v1/device/${id}`), 204);
    expect(deleted).toEqual([
      expect.objectContaining({ ...actor('alice'), ...device, type: 'device.deleted', device_name: 'work-laptop' }),
    ]);
  });

  it("an admin acting on a user's device records the owner as the entry's subject", async () => {
    let id = 0;
    const added = await recorded(async () => {
      const res = await send(admin, 'POST', '/api/v1/device/alice', { name: 'phone', wireguard_pubkey: newKey() });
      id = res.json().device?.id;
      return res;
    }, 201);
    expect(added).toEqual([expect.objectContaining({ ...actor('admin'), type: 'device.added', device_id: id, subject_user_id: aliceId })]);
    const key = (await send(admin, 'GET', `/api/v1/device/${id}`)).json().wireguard_pubkey;
    const renamed = await recorded(() => send(admin, 'PUT', `/api/v1/device/${id}`, { name: 'phone-2', wireguard_pubkey: key }), 200);
    expect(renamed).toEqual([
      expect.objectContaining({
        type: 'device.modified',
        subject_user_id: aliceId,
        details: { changed: ['name'], previous_name: 'phone' },
      }),
    ]);
    const deleted = await recorded(() => send(admin, 'DELETE', `/api/v1/device/${id}`), 204);
    expect(deleted).toEqual([expect.objectContaining({ ...actor('admin'), type: 'device.deleted', subject_user_id: aliceId })]);
  });

  it('a refused or failed request records nothing', async () => {
    const key = newKey();
    const id = (await send(alice, 'POST', '/api/v1/device/alice', { name: 'laptop', wireguard_pubkey: key })).json().device.id as number;
    const mark = await lastEventId(t.database.db);
    expect((await send(alice, 'POST', '/api/v1/device/alice', { name: 'x', wireguard_pubkey: 'not-a-key' })).statusCode).toBe(400);
    expect((await send(alice, 'POST', '/api/v1/device/alice', { name: 'Laptop', wireguard_pubkey: newKey() })).statusCode).toBe(400);
    expect((await send(bob, 'POST', '/api/v1/device/bob', { name: 'mine', wireguard_pubkey: key })).statusCode).toBe(400);
    expect((await send(bob, 'POST', '/api/v1/device/alice', { name: 'planted', wireguard_pubkey: newKey() })).statusCode).toBe(403);
    expect((await send(admin, 'POST', '/api/v1/device/nobody', { name: 'x', wireguard_pubkey: newKey() })).statusCode).toBe(404);
    expect((await send(bob, 'PUT', `/api/v1/device/${id}`, { name: 'mine', wireguard_pubkey: newKey() })).statusCode).toBe(403);
    expect((await send(admin, 'PUT', '/api/v1/device/999999', { name: 'x', wireguard_pubkey: newKey() })).statusCode).toBe(404);
    expect((await send(bob, 'DELETE', `/api/v1/device/${id}`)).statusCode).toBe(403);
    expect((await send(admin, 'DELETE', '/api/v1/device/999999')).statusCode).toBe(404);
    expect((await send(bob, 'GET', `/api/v1/network/${location.id}/device/${id}/config`)).statusCode).toBe(403);
    expect((await send(alice, 'GET', `/api/v1/network/999999/device/${id}/config`)).statusCode).toBe(404);
    expect(await eventsAfter(t.database.db, mark)).toEqual([]);
  });
});
