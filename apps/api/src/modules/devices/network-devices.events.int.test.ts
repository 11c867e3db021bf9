import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventsAfter, lastEventId } from '#test/event-rows.js';
import { createTestApp, type HttpMethod, resetDatabase, type TestApp } from '#test/helpers.js';
import { createLocation, newKey } from '#test/network-fixtures.js';

/** Network device routes record their event with the admin, the client address and the device. */
describe('network device events', () => {
  let t: TestApp;
  let admin: string;
  let location: { id: number; name: string };
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    location = await createLocation(t.app, admin, { address: ['10.70.0.1/24'] });
  });
  afterAll(() => t.close());

  const IP = '192.0.2.44';
  const send = (method: HttpMethod, url: string, payload?: unknown, cookie = admin) =>
    t.request(method, url, { cookie, payload, remoteAddress: IP });
  async function recorded(act: () => Promise<{ statusCode: number; json(): unknown; body: string }>, status: number) {
    const mark = await lastEventId(t.database.db);
    const res = await act();
    expect(res.statusCode).toBe(status);
    return { res, events: await eventsAfter(t.database.db, mark) };
  }
  const byAdmin = { actor_type: 'user', username: 'admin', ip: IP, module: 'devices' };
  const at = () => ({ location_id: location.id, location_name: location.name });

  it('add, change, download, CLI token for it, delete', async () => {
    const added = await recorded(
      () =>
        send('POST', '/api/v1/device/network', {
          name: 'router',
          location_id: location.id,
          wireguard_pubkey: newKey(),
          assigned_ips: ['10.70.0.9'],
        }),
      201,
    );
    const id = (added.res.json() as { device: { id: number } }).device.id;
    const device = { object_type: 'network_device', object_id: String(id), device_id: id };
    expect(added.events).toEqual([
      expect.objectContaining({
        ...byAdmin,
        ...device,
        type: 'network_device.added',
        object_name: 'router',
        device_name: 'router',
        details: { ...at(), assigned_ips: ['10.70.0.9'] },
      }),
    ]);

    const modified = await recorded(() => send('PUT', `/api/v1/device/network/${id}`, { name: 'edge', assigned_ips: ['10.70.0.10'] }), 200);
    expect(modified.events).toEqual([
      expect.objectContaining({
        ...byAdmin,
        ...device,
        type: 'network_device.modified',
        device_name: 'edge',
        details: { ...at(), changed: ['name', 'assigned_ips'], previous_name: 'router' },
      }),
    ]);

    const downloaded = await recorded(() => send('GET', `/api/v1/device/network/${id}/config`), 200);
    expect(downloaded.events).toEqual([
      expect.objectContaining({ ...byAdmin, ...device, type: 'network_device.config_downloaded', details: at() }),
    ]);
    // Read through the user-device config route, it is still recorded as a network device's.
    const viaLocation = await recorded(() => send('GET', `/api/v1/network/${location.id}/device/${id}/config`), 200);
    expect(viaLocation.events).toEqual([expect.objectContaining({ ...device, type: 'network_device.config_downloaded', details: at() })]);

    const cli = await recorded(() => send('POST', `/api/v1/device/network/start_cli/${id}`), 201);
    const token = (cli.res.json() as { token: string }).token;
    expect(cli.events).toEqual([
      expect.objectContaining({
        ...byAdmin,
        ...device,
        type: 'network_device.cli_token_issued',
        details: { ...at(), expires_at: expect.any(String) },
      }),
    ]);
    expect(JSON.stringify(cli.events)).not.toContain(token);

    const deleted = await recorded(() => send('DELETE', `/api/v1/device/network/${id}`), 204);
    expect(deleted.events).toEqual([
      expect.objectContaining({ ...byAdmin, ...device, type: 'network_device.deleted', device_name: 'edge', details: at() }),
    ]);
  });

  it('a CLI token for a new device, and removing that pending device', async () => {
    const cli = await recorded(() => send('POST', '/api/v1/device/network/start_cli', { name: 'nas', location_id: location.id }), 201);
    const token = (cli.res.json() as { token: string }).token;
    const [pending] = (await send('GET', '/api/v1/device/network/pending')).json() as { id: number }[];
    expect(cli.events).toEqual([
      expect.objectContaining({
        ...byAdmin,
        type: 'network_device.cli_token_issued',
        object_type: 'pending_network_device',
        object_id: String(pending?.id),
        object_name: 'nas',
        device_id: null,
        details: { ...at(), expires_at: expect.any(String) },
      }),
    ]);
    expect(JSON.stringify(cli.events)).not.toContain(token);

    const removed = await recorded(() => send('DELETE', `/api/v1/device/network/pending/${pending?.id}`), 204);
    expect(removed.events).toEqual([
      expect.objectContaining({
        ...byAdmin,
        type: 'network_device.pending_deleted',
        object_type: 'pending_network_device',
        object_id: String(pending?.id),
        object_name: 'nas',
        details: at(),
      }),
    ]);
  });

  it('a refused or failed request records nothing, also when it fails inside the transaction', async () => {
    const id = (
      await send('POST', '/api/v1/device/network', { name: 'router', location_id: location.id, wireguard_pubkey: newKey() })
    ).json().device.id as number;
    const user = await t.createUser('carol');
    const mark = await lastEventId(t.database.db);
    // The address is checked inside the transaction that inserted the device.
    const outside = { name: 'far', location_id: location.id, wireguard_pubkey: newKey(), assigned_ips: ['10.99.0.9'] };
    expect((await send('POST', '/api/v1/device/network', outside)).statusCode).toBe(400);
    expect((await send('POST', '/api/v1/device/network', { ...outside, assigned_ips: [], location_id: 999999 })).statusCode).toBe(404);
    expect((await send('PUT', `/api/v1/device/network/${id}`, { name: 'edge', assigned_ips: ['10.99.0.9'] })).statusCode).toBe(400);
    expect((await send('PUT', '/api/v1/device/network/999999', { name: 'edge', assigned_ips: ['10.70.0.20'] })).statusCode).toBe(404);
    expect((await send('GET', '/api/v1/device/network/999999/config')).statusCode).toBe(404);
    expect((await send('POST', '/api/v1/device/network/start_cli/999999')).statusCode).toBe(404);
    expect((await send('POST', '/api/v1/device/network/start_cli', { name: 'router', location_id: location.id })).statusCode).toBe(400);
    expect((await send('DELETE', '/api/v1/device/network/pending/999999')).statusCode).toBe(404);
    expect((await send('DELETE', '/api/v1/device/network/999999')).statusCode).toBe(404);
    expect((await send('DELETE', `/api/v1/device/network/${id}`, undefined, user)).statusCode).toBe(403);
    expect((await send('GET', `/api/v1/device/network/${id}/config`, undefined, user)).statusCode).toBe(403);
    expect(await eventsAfter(t.database.db, mark)).toEqual([]);
  });
});
