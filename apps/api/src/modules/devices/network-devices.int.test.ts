import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation, locationBody, newKey } from '#test/network-fixtures.js';

describe('network devices', () => {
  let t: TestApp;
  let admin: string;
  let location: { id: number };
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    location = await createLocation(t.app, admin, { address: ['10.100.0.1/24'] });
  });
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('suggests, validates and assigns a chosen address; lists with the spec columns', async () => {
    await addDevice(t.app, admin, 'admin'); // takes .2
    expect((await inject('GET', `/api/v1/device/network/ip/${location.id}`, admin)).json()).toEqual({ ips: ['10.100.0.3'] });
    const check = await inject('POST', `/api/v1/device/network/ip/${location.id}`, admin, {
      ips: ['10.100.0.2', '10.100.0.1', '10.101.0.5', 'x', '10.100.0.9'],
    });
    expect(check.json().results.map((r: { valid: boolean; code?: string }) => r.code ?? 'ok')).toEqual([
      'network.ip_in_use',
      'network.ip_outside',
      'network.ip_outside',
      'network.ip_invalid',
      'ok',
    ]);
    const res = await inject('POST', '/api/v1/device/network', admin, {
      name: 'router',
      location_id: location.id,
      assigned_ips: ['10.100.0.9'],
      wireguard_pubkey: newKey(),
      description: 'branch router',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().device).toMatchObject({
      name: 'router',
      location_id: location.id,
      assigned_ips: ['10.100.0.9'],
      added_by: 'admin',
      description: 'branch router',
    });
    expect(res.json().config).toContain('Address = 10.100.0.9/24');
    const list = (await inject('GET', '/api/v1/device/network?search=branch', admin)).json();
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ location_name: expect.any(String), added_date: expect.any(String) });
  });

  it('search matches assigned addresses by prefix', async () => {
    for (const [name, ip] of [
      ['alpha', '10.100.0.9'],
      ['beta', '10.100.0.91'],
      ['gamma', '10.100.0.19'],
    ]) {
      const res = await inject('POST', '/api/v1/device/network', admin, {
        name,
        location_id: location.id,
        assigned_ips: [ip],
        wireguard_pubkey: newKey(),
      });
      expect(res.statusCode).toBe(201);
    }
    const names = async (search: string) =>
      (await inject('GET', `/api/v1/device/network?search=${encodeURIComponent(search)}`, admin))
        .json()
        .items.map((d: { name: string }) => d.name)
        .sort();
    expect(await names('10.100.0.9')).toEqual(['alpha', 'beta']);
    expect(await names('10.100.0.19')).toEqual(['gamma']);
    expect(await names('10.100.')).toEqual(['alpha', 'beta', 'gamma']);
    expect(await names('0.0.9')).toEqual([]);
  });

  it('rejects an address in use with the field error and creates nothing', async () => {
    await addDevice(t.app, admin, 'admin');
    const res = await inject('POST', '/api/v1/device/network', admin, {
      name: 'r',
      location_id: location.id,
      assigned_ips: ['10.100.0.2'],
      wireguard_pubkey: newKey(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ path: 'assigned_ips.0', code: 'network.ip_in_use', message: 'IP already in use' });
    expect((await inject('GET', '/api/v1/device/network', admin)).json().total).toBe(0);
  });

  it('never offers MFA-protected locations', async () => {
    const mfa = await createLocation(t.app, admin, { name: 'secure', address: ['10.102.0.1/24'], mfa_enabled: true });
    const res = await inject('POST', '/api/v1/device/network', admin, { name: 'r', location_id: mfa.id, wireguard_pubkey: newKey() });
    expect(res.json().code).toBe('device.mfa_location');
    const cli = await inject('POST', '/api/v1/device/network/start_cli', admin, { name: 'cli-r', location_id: mfa.id });
    expect(cli.statusCode).toBe(400);
    expect(cli.json().code).toBe('device.mfa_location');
  });

  it('refuses to make a location with network devices MFA-protected', async () => {
    const body = locationBody({ name: 'plain', address: ['10.103.0.1/24'] });
    const plain = await createLocation(t.app, admin, body);
    const add = await inject('POST', '/api/v1/device/network', admin, { name: 'r', location_id: plain.id, wireguard_pubkey: newKey() });
    expect(add.statusCode).toBe(201);
    const res = await inject('PUT', `/api/v1/network/${plain.id}`, admin, { ...body, mfa_enabled: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('device.mfa_location');
    expect((await inject('GET', `/api/v1/network/${plain.id}`, admin)).json().mfa_enabled).toBe(false);
    const empty = await inject('PUT', `/api/v1/network/${location.id}`, admin, {
      ...locationBody({ address: ['10.100.0.1/24'] }),
      mfa_enabled: true,
    });
    expect(empty.statusCode).toBe(200);
  });

  it('edits, shows the config of and deletes a network device', async () => {
    const created = (
      await inject('POST', '/api/v1/device/network', admin, { name: 'nas', location_id: location.id, wireguard_pubkey: newKey() })
    ).json();
    expect(created.device.assigned_ips).toEqual(['10.100.0.2']);
    const id = created.device.id;
    const edited = await inject('PUT', `/api/v1/device/network/${id}`, admin, { name: 'nas2', assigned_ips: ['10.100.0.50'] });
    expect(edited.json()).toMatchObject({ name: 'nas2', assigned_ips: ['10.100.0.50'] });
    const config = await inject('GET', `/api/v1/device/network/${id}/config`, admin);
    expect(config.headers['content-type']).toMatch(/^text\/plain/);
    expect(config.body).toMatch(/^\[Interface\]/);
    expect(config.body).toContain('Address = 10.100.0.50/24');
    expect((await inject('DELETE', `/api/v1/device/network/${id}`, admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/v1/device/network/${id}`, admin)).statusCode).toBe(404);
  });

  it('issues one-time CLI tokens that are stored only as hashes', async () => {
    const res = await inject('POST', '/api/v1/device/network/start_cli', admin, { name: 'cli-box', location_id: location.id });
    expect(res.statusCode).toBe(201);
    const { token } = res.json();
    expect(token.length).toBeGreaterThan(20);
    const rows = ((await t.database.db.execute('select token_hash from cli_tokens')) as unknown as { rows: { token_hash: string }[] }).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).not.toContain(token);
    const created = (
      await inject('POST', '/api/v1/device/network', admin, { name: 'nas', location_id: location.id, wireguard_pubkey: newKey() })
    ).json();
    expect((await inject('POST', `/api/v1/device/network/start_cli/${created.device.id}`, admin)).statusCode).toBe(201);
  });

  it('lists a device announced with a CLI token as pending until enrollment, with the expiry; removing it revokes the token', async () => {
    const res = await inject('POST', '/api/v1/device/network/start_cli', admin, {
      name: 'cli-box',
      location_id: location.id,
      assigned_ips: ['10.100.0.40'],
      description: 'rack 4',
    });
    const pending = (await inject('GET', '/api/v1/device/network/pending', admin)).json();
    expect(pending).toEqual([
      expect.objectContaining({
        name: 'cli-box',
        location_id: location.id,
        assigned_ips: ['10.100.0.40'],
        description: 'rack 4',
        added_by: 'admin',
        expires_at: res.json().expires_at,
        is_expired: false,
      }),
    ]);
    await t.database.db.execute("update cli_tokens set expires_at = now() - interval '1 minute'");
    expect((await inject('GET', '/api/v1/device/network/pending', admin)).json()[0].is_expired).toBe(true);
    expect((await inject('DELETE', `/api/v1/device/network/pending/${pending[0].id}`, admin)).statusCode).toBe(204);
    expect((await inject('GET', '/api/v1/device/network/pending', admin)).json()).toEqual([]);
    expect((await inject('DELETE', `/api/v1/device/network/pending/${pending[0].id}`, admin)).json().code).toBe('device.not_found');
  });

  it('checks chosen addresses of a CLI token request, and refuses ids beyond the integer range', async () => {
    const outside = await inject('POST', '/api/v1/device/network/start_cli', admin, {
      name: 'cli',
      location_id: location.id,
      assigned_ips: ['10.9.9.9'],
    });
    expect(outside.json().errors[0]).toMatchObject({ path: 'assigned_ips.0', code: 'network.ip_outside' });
    const junk = await inject('POST', '/api/v1/device/network/start_cli', admin, {
      name: 'cli',
      location_id: location.id,
      assigned_ips: [''],
    });
    expect(junk.json().errors[0]).toMatchObject({ path: 'assigned_ips.0', code: 'network.ip_invalid' });
    const huge = await inject('POST', '/api/v1/device/network', admin, { name: 'x', location_id: 2 ** 40, wireguard_pubkey: newKey() });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().errors[0]).toMatchObject({ path: 'location_id', code: 'max_value' });
    const rows = ((await t.database.db.execute('select count(*)::int as n from cli_tokens')) as unknown as { rows: { n: number }[] }).rows;
    expect(rows[0]?.n).toBe(0);
  });

  it('is admin-only', async () => {
    const user = await t.createUser('carol');
    for (const [method, url] of [
      ['GET', '/api/v1/device/network'],
      ['GET', `/api/v1/device/network/ip/${location.id}`],
      ['POST', '/api/v1/device/network/start_cli'],
    ] as const) {
      expect((await inject(method, url, user, method === 'POST' ? { name: 'x', location_id: location.id } : undefined)).statusCode).toBe(
        403,
      );
    }
  });
});
