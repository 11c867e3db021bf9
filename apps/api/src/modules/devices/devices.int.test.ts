import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation, newKey } from '#test/network-fixtures.js';

describe('user devices', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  let locationId: number;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
    locationId = (await createLocation(t.app, admin, { address: ['10.90.0.1/24'], allowed_ips: ['0.0.0.0/0', '::/0', '10.90.0.0/24'] })).id;
  });
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, cookie: string | undefined, payload?: unknown) =>
    t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('a user adds a device and gets one config per location', async () => {
    const res = await inject('POST', '/api/v1/device/alice', alice, { name: 'laptop', wireguard_pubkey: newKey() });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.device).toMatchObject({ name: 'laptop', username: 'alice' });
    expect(body.configs).toHaveLength(1);
    expect(body.configs[0]).toMatchObject({ network_id: locationId, assigned_ips: ['10.90.0.2'] });
    expect((await inject('GET', '/api/v1/device/user/alice', alice)).json()).toHaveLength(1);
  });

  it('rejects a duplicate name for the same user, a reused key and a bad key', async () => {
    const key = newKey();
    await inject('POST', '/api/v1/device/alice', alice, { name: 'phone', wireguard_pubkey: key });
    const dup = await inject('POST', '/api/v1/device/alice', alice, { name: 'Phone', wireguard_pubkey: newKey() });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors[0]).toMatchObject({ path: 'name', message: 'Device with this name already exists' });
    expect((await inject('POST', '/api/v1/device/bob', bob, { name: 'phone', wireguard_pubkey: newKey() })).statusCode).toBe(201);
    expect((await inject('POST', '/api/v1/device/bob', bob, { name: 'other', wireguard_pubkey: key })).json().code).toBe(
      'device.key_taken',
    );
    const bad = await inject('POST', '/api/v1/device/bob', bob, { name: 'x', wireguard_pubkey: 'not-a-key' });
    expect(bad.json().errors[0]).toMatchObject({ path: 'wireguard_pubkey', code: 'device.invalid_key' });
  });

  it("a user can neither read, change, delete nor download another user's device", async () => {
    const { device } = await addDevice(t.app, alice, 'alice');
    expect((await inject('GET', `/api/v1/device/${device.id}`, bob)).statusCode).toBe(403);
    expect((await inject('PUT', `/api/v1/device/${device.id}`, bob, { name: 'mine', wireguard_pubkey: newKey() })).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/v1/device/${device.id}`, bob)).statusCode).toBe(403);
    expect((await inject('GET', `/api/v1/network/${locationId}/device/${device.id}/config`, bob)).statusCode).toBe(403);
    expect((await inject('POST', '/api/v1/device/alice', bob, { name: 'planted', wireguard_pubkey: newKey() })).statusCode).toBe(403);
    expect((await inject('GET', '/api/v1/device/user/alice', bob)).statusCode).toBe(403);
    expect((await inject('GET', '/api/v1/device', bob)).statusCode).toBe(403);
    expect((await inject('GET', `/api/v1/device/${device.id}`, undefined)).statusCode).toBe(401);
    expect((await inject('GET', `/api/v1/device/${device.id}`, alice)).json().name).toBe(device.name);
    expect((await inject('GET', `/api/v1/device/${device.id}`, admin)).statusCode).toBe(200);
  });

  it('owners rename and delete their devices; admins list all devices paged', async () => {
    const { device } = await addDevice(t.app, alice, 'alice');
    await addDevice(t.app, bob, 'bob');
    const renamed = await inject('PUT', `/api/v1/device/${device.id}`, alice, { name: 'renamed', wireguard_pubkey: newKey() });
    expect(renamed.json().name).toBe('renamed');
    const page = (await inject('GET', '/api/v1/device?per_page=1&page=2', admin)).json();
    expect(page).toMatchObject({ page: 2, per_page: 1, total: 2 });
    expect(page.items).toHaveLength(1);
    expect((await inject('GET', '/api/v1/device?search=renamed', admin)).json().total).toBe(1);
    expect((await inject('DELETE', `/api/v1/device/${device.id}`, alice)).statusCode).toBe(204);
  });

  it('with the device-management lock only admins manage devices', async () => {
    const { device } = await addDevice(t.app, alice, 'alice');
    expect((await inject('PATCH', '/api/v1/settings_enterprise', alice, { admin_device_management: true })).statusCode).toBe(403);
    expect(
      (await inject('PATCH', '/api/v1/settings_enterprise', admin, { admin_device_management: true })).json().admin_device_management,
    ).toBe(true);
    expect((await inject('GET', '/api/v1/settings_enterprise', alice)).json().admin_device_management).toBe(true);
    expect((await inject('POST', '/api/v1/device/alice', alice, { name: 'new', wireguard_pubkey: newKey() })).json().code).toBe(
      'device.management_locked',
    );
    expect((await inject('DELETE', `/api/v1/device/${device.id}`, alice)).json().code).toBe('device.management_locked');
    expect((await inject('POST', '/api/v1/device/alice', admin, { name: 'by-admin', wireguard_pubkey: newKey() })).statusCode).toBe(201);
  });

  it('with manual config disabled users cannot read configs; admins can', async () => {
    const { device } = await addDevice(t.app, alice, 'alice');
    const url = `/api/v1/network/${locationId}/device/${device.id}/config`;
    expect((await inject('GET', url, alice)).statusCode).toBe(200);
    await inject('PATCH', '/api/v1/settings_enterprise', admin, { disable_manual_config: true });
    expect((await inject('GET', url, alice)).json().code).toBe('device.config_disabled');
    expect((await inject('GET', url, admin)).statusCode).toBe(200);
  });

  it('with manual config disabled a user adding a device learns its placement, not its config', async () => {
    await inject('PATCH', '/api/v1/settings_enterprise', admin, { disable_manual_config: true });
    const location = (await inject('GET', `/api/v1/network/${locationId}`, admin)).json();
    const mine = await inject('POST', '/api/v1/device/alice', alice, { name: 'locked', wireguard_pubkey: newKey() });
    expect(mine.statusCode).toBe(201);
    expect(mine.json()).toMatchObject({ config_disabled: true, configs: [{ network_id: locationId, assigned_ips: ['10.90.0.2'] }] });
    expect(mine.json().configs[0]).not.toHaveProperty('config');
    expect(mine.body).not.toContain('[Interface]');
    expect(mine.body).not.toContain(location.pubkey);
    const byAdmin = await inject('POST', '/api/v1/device/alice', admin, { name: 'unlocked', wireguard_pubkey: newKey() });
    expect(byAdmin.json().configs[0].config).toContain('[Interface]');
    expect(byAdmin.json()).not.toHaveProperty('config_disabled');
  });

  it('with all-traffic routing disabled default routes are never offered', async () => {
    const { device } = await addDevice(t.app, alice, 'alice');
    const url = `/api/v1/network/${locationId}/device/${device.id}/config`;
    expect((await inject('GET', url, alice)).body).toContain('AllowedIPs = 0.0.0.0/0, ::/0, 10.90.0.0/24');
    await inject('PATCH', '/api/v1/settings_enterprise', admin, { disable_all_traffic: true });
    expect((await inject('GET', url, alice)).body).toContain('AllowedIPs = 10.90.0.0/24\n');
  });

  it('deleting a user removes their devices and frees their addresses', async () => {
    await addDevice(t.app, alice, 'alice');
    expect((await inject('DELETE', '/api/v1/user/alice', admin)).statusCode).toBe(204);
    const next = await addDevice(t.app, bob, 'bob');
    expect(next.configs[0]?.assigned_ips).toEqual(['10.90.0.2']);
  });
});
