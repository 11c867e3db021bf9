import { generateKeyPair } from '@palisade/wireguard';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventsAfter, lastEventId } from '#test/event-rows.js';
import { createTestApp, type HttpMethod, resetDatabase, type TestApp } from '#test/helpers.js';
import { locationBody } from '#test/network-fixtures.js';

/** Location routes record their event with the admin, the client address and the location. */
describe('location events', () => {
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

  const IP = '203.0.113.7';
  const UA = 'events-test/1.0';
  const send = (method: HttpMethod, url: string, payload?: unknown) =>
    t.request(method, url, { cookie: admin, payload, remoteAddress: IP, headers: { 'user-agent': UA } });
  /** Runs `act` and returns what it recorded. */
  async function recorded(act: () => Promise<{ statusCode: number }>, status: number) {
    const mark = await lastEventId(t.database.db);
    const res = await act();
    expect(res.statusCode).toBe(status);
    return eventsAfter(t.database.db, mark);
  }
  const byAdmin = { actor_type: 'user', username: 'admin', user_id: expect.any(Number), ip: IP, user_agent: UA, module: 'locations' };

  it('create, modify (with the changed fields), rotate the token and delete', async () => {
    const body = locationBody({ name: 'Office' });
    let id = 0;
    const created = await recorded(async () => {
      const res = await send('POST', '/api/v1/network', body);
      id = res.json().id;
      return res;
    }, 201);
    expect(created).toEqual([
      expect.objectContaining({
        ...byAdmin,
        type: 'location.created',
        object_type: 'location',
        object_id: String(id),
        object_name: 'Office',
        device_id: null,
        details: expect.objectContaining({ address: ['10.20.0.1/24'], endpoint: 'vpn.example.com' }),
      }),
    ]);

    const modified = await recorded(() => send('PUT', `/api/v1/network/${id}`, { ...body, name: 'HQ', port: 51821 }), 200);
    expect(modified).toEqual([
      expect.objectContaining({
        ...byAdmin,
        type: 'location.modified',
        object_id: String(id),
        object_name: 'HQ',
        details: { changed: ['name', 'port'], previous_name: 'Office' },
      }),
    ]);
    // Group names are compared without case: the same groups are no change.
    const same = await recorded(
      () => send('PUT', `/api/v1/network/${id}`, { ...body, name: 'HQ', port: 51821, allowed_groups: ['ADMIN'] }),
      200,
    );
    expect(same[0]?.details).toEqual({ changed: ['allowed_groups'] });
    const again = await recorded(
      () => send('PUT', `/api/v1/network/${id}`, { ...body, name: 'HQ', port: 51821, allowed_groups: ['Admin'] }),
      200,
    );
    expect(again[0]?.details).toEqual({ changed: [] });

    let token = '';
    const rotated = await recorded(async () => {
      const res = await send('POST', `/api/v1/network/${id}/token`);
      token = res.json().token;
      return res;
    }, 200);
    expect(rotated).toEqual([
      expect.objectContaining({ ...byAdmin, type: 'location.token_rotated', object_id: String(id), object_name: 'HQ' }),
    ]);
    expect(token.length).toBeGreaterThan(20);
    expect(JSON.stringify(rotated)).not.toContain(token);

    const deleted = await recorded(() => send('DELETE', `/api/v1/network/${id}`), 204);
    expect(deleted).toEqual([expect.objectContaining({ ...byAdmin, type: 'location.deleted', object_id: String(id), object_name: 'HQ' })]);
  });

  it('import records the peer counts; mapping records the mapped and still pending peers', async () => {
    const server = generateKeyPair();
    const peers = [generateKeyPair(), generateKeyPair()];
    const config = `[Interface]\nPrivateKey = ${server.privateKey}\nAddress = 10.201.0.1/24\n\n${peers
      .map((p, i) => `[Peer]\nPublicKey = ${p.publicKey}\nAllowedIPs = 10.201.0.${10 + i}/32\n`)
      .join('\n')}`;
    let id = 0;
    const imported = await recorded(async () => {
      const res = await send('POST', '/api/v1/network/import', { name: 'Legacy', endpoint: 'vpn.example.com', config, allowed_groups: [] });
      id = res.json().network?.id;
      return res;
    }, 201);
    expect(imported).toEqual([
      expect.objectContaining({
        ...byAdmin,
        type: 'location.imported',
        object_type: 'location',
        object_id: String(id),
        object_name: 'Legacy',
        details: { peers: 2, mapped: 0, pending: 2 },
      }),
    ]);
    expect(JSON.stringify(imported)).not.toContain(server.privateKey);

    const alice = (await t.newUser(admin, 'alice')) as { id: number };
    const mapped = await recorded(
      () =>
        send('POST', `/api/v1/network/${id}/devices`, {
          devices: [{ name: 'old-laptop', wireguard_pubkey: peers[0]?.publicKey, wireguard_ips: ['10.201.0.10'], user_id: alice.id }],
        }),
      204,
    );
    expect(mapped).toEqual([
      expect.objectContaining({
        ...byAdmin,
        type: 'location.devices_mapped',
        object_id: String(id),
        object_name: 'Legacy',
        details: { mapped: 1, users: 1, pending: 1 },
      }),
    ]);
  });

  it('a refused or failed request records nothing, also when it fails inside the transaction', async () => {
    const body = locationBody({ name: 'Office' });
    const id = (await send('POST', '/api/v1/network', body)).json().id as number;
    const user = await t.createUser('bob');
    const mark = await lastEventId(t.database.db);
    expect((await send('POST', '/api/v1/network', { ...body, port: 'x' })).statusCode).toBe(400);
    expect((await send('POST', '/api/v1/network', body)).statusCode).toBe(400); // name taken
    expect((await send('PUT', '/api/v1/network/999999', body)).statusCode).toBe(404);
    // Unknown groups are found inside the transaction that would record the event.
    expect((await send('PUT', `/api/v1/network/${id}`, { ...body, allowed_groups: ['nope'] })).statusCode).toBe(400);
    expect((await send('DELETE', '/api/v1/network/999999')).statusCode).toBe(404);
    expect((await send('POST', '/api/v1/network/999999/token')).statusCode).toBe(404);
    expect(
      (await send('POST', '/api/v1/network/import', { name: 'Bad', endpoint: 'vpn.example.com', config: 'nonsense' })).statusCode,
    ).toBe(400);
    expect(
      (
        await send('POST', `/api/v1/network/${id}/devices`, {
          devices: [{ name: 'x', wireguard_pubkey: generateKeyPair().publicKey, wireguard_ips: ['10.20.0.9'], user_id: 999999 }],
        })
      ).statusCode,
    ).toBe(400);
    expect((await t.request('DELETE', `/api/v1/network/${id}`, { cookie: user })).statusCode).toBe(403);
    expect(await eventsAfter(t.database.db, mark)).toEqual([]);
  });
});
