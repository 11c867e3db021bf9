import { generateKeyPair } from '@palisade/wireguard';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTokens } from '#src/db/schema/index.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import type { DirectoryClient } from '#src/modules/directory-sync/providers/directory-client.js';
import { syncGroups } from '#src/modules/directory-sync/sync-groups.js';
import { emptySummary } from '#src/modules/directory-sync/sync-types.js';
import { SYSTEM_ACTOR } from '#src/modules/events/event-actor.js';
import { applyPalisadeChanges } from '#src/modules/ldap/sync-apply-palisade.js';
import type { PalisadeChange } from '#src/modules/ldap/sync-model.js';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation, locationBody, newKey } from '#test/network-fixtures.js';

/**
 * The other writers of addresses keep the lock order of lock-order.int.test.ts (locations first,
 * in id order): desktop activation, the import mapping, directory sync and LDAP sync. Each races
 * device creations (locations in order, then the row counter and gateway state) and deletions;
 * before, each took the row counter or a location's gateway state first and then locked locations
 * one by one, and PostgreSQL's deadlock detector failed one side.
 */
describe('concurrent writes to addresses from enrollment, import and sync', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const inject = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

  type Response = { statusCode: number; body: string };
  function recorder() {
    const failures: string[] = [];
    const record = async (label: string, expected: number, res: Promise<Response>) => {
      const r = await res;
      if (r.statusCode !== expected) failures.push(`${label}: ${r.statusCode} ${r.body.slice(0, 160)}`);
      return r;
    };
    return { failures, record };
  }

  /** User devices of the users lacking an address in one of the locations (none when placement held). */
  async function unplaced(usernames: string[], locationIds: number[]): Promise<string[]> {
    const rows = await t.database.db.execute(sql`
      select u.username, d.name, l.id as location_id from devices d
        join users u on u.id = d.user_id cross join locations l
       where d.kind = 'user' and u.username in (${sql.join(usernames, sql`, `)}) and l.id in (${sql.join(locationIds, sql`, `)})
         and not exists (select 1 from device_ips di where di.device_id = d.id and di.location_id = l.id)`);
    return (rows as unknown as { rows: { username: string; name: string; location_id: number }[] }).rows.map(
      (r) => `${r.username}/${r.name}@${r.location_id}`,
    );
  }

  async function usersWithDevices(prefix: string, count: number, perUser: number) {
    const users = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    const ids = new Map<string, number>();
    for (const u of users) ids.set(u, (await t.newUser(admin, u)).id as number);
    const devices = new Map<string, number[]>(users.map((u) => [u, []]));
    for (const u of users) for (let i = 0; i < perUser; i++) devices.get(u)?.push((await addDevice(t.app, admin, u)).device.id as number);
    return { users, ids, devices };
  }

  /** A creation and (while it has any) a deletion of the user's devices, as a console would send them. */
  function deviceWrites(record: ReturnType<typeof recorder>['record'], u: string, devices: Map<string, number[]>, tag: string) {
    const victim = devices.get(u)?.shift();
    return [
      record('create device', 201, inject('POST', `/api/v1/device/${u}`, { name: tag, wireguard_pubkey: newKey() })),
      ...(victim === undefined ? [] : [record('delete device', 204, inject('DELETE', `/api/v1/device/${victim}`))]),
    ];
  }

  it('desktop activations never deadlock with device creations and deletions', async () => {
    const low = await createLocation(t.app, admin, { address: ['10.94.0.1/22'], allowed_ips: ['10.94.0.0/22'] });
    const high = await createLocation(t.app, admin, { address: ['10.95.0.1/22'], allowed_ips: ['10.95.0.0/22'] });
    const { users, ids, devices } = await usersWithDevices('ld', 8, 3);
    const { failures, record } = recorder();
    let address = 0;
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        users.map(async (u) => {
          const token = randomToken(32);
          await t.database.db
            .insert(userTokens)
            .values({ userId: ids.get(u) ?? 0, purpose: 'desktop', tokenHash: sha256(token), expiresAt: new Date(Date.now() + 3600_000) });
          await Promise.all([
            record(
              'desktop activation',
              201,
              t.request('POST', '/api/v1/enrollment/client/desktop', {
                payload: { token, name: `desk${round}`, wireguard_pubkey: newKey() },
                remoteAddress: `198.18.9.${++address}`,
              }),
            ),
            ...deviceWrites(record, u, devices, `ld${round}`),
          ]);
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(await unplaced(users, [low.id, high.id])).toEqual([]);
  });

  it('mapping imported peers never deadlocks with device creations and deletions', async () => {
    const low = await createLocation(t.app, admin, { address: ['10.96.0.1/22'], allowed_ips: ['10.96.0.0/22'] });
    const { users, ids, devices } = await usersWithDevices('li', 8, 3);
    const peers = users.map((_, i) => ({ key: generateKeyPair().publicKey, ip: `10.97.0.${10 + i}` }));
    const config = [
      `[Interface]\nPrivateKey = ${generateKeyPair().privateKey}\nAddress = 10.97.0.1/22\nListenPort = 51998\n`,
      ...peers.map((p) => `[Peer]\nPublicKey = ${p.key}\nAllowedIPs = ${p.ip}/32\n`),
    ].join('\n');
    const imported = await inject('POST', '/api/v1/network/import', {
      name: 'lock-import',
      endpoint: 'i.example.com',
      config,
      allowed_groups: [],
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const high = imported.json().network as { id: number };
    expect(high.id).toBeGreaterThan(low.id);
    const { failures, record } = recorder();
    await Promise.all(
      users.flatMap((u, i) => [
        record(
          'map peer',
          204,
          inject('POST', `/api/v1/network/${high.id}/devices`, {
            devices: [{ name: `peer${i}`, wireguard_pubkey: peers[i]?.key, wireguard_ips: [peers[i]?.ip], user_id: ids.get(u) }],
          }),
        ),
        ...deviceWrites(record, u, devices, 'li'),
      ]),
    );
    expect(failures).toEqual([]);
    expect(await unplaced(users, [low.id, high.id])).toEqual([]);
    const mapped = await t.database.db.execute(sql`
      select count(*)::int as n from device_ips di join devices d on d.id = di.device_id
       where di.location_id = ${high.id} and d.name like 'peer%' and host(di.ip) like '10.97.0.%'`);
    expect((mapped as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(users.length);
  });

  it('directory sync of group members never deadlocks with device creations and deletions', async () => {
    expect((await inject('POST', '/api/v1/group', { name: 'lock-dir' })).statusCode).toBe(201);
    const low = await createLocation(t.app, admin, { address: ['10.98.0.1/22'], allowed_ips: ['10.98.0.0/22'] });
    const high = await createLocation(t.app, admin, {
      address: ['10.99.0.1/22'],
      allowed_ips: ['10.99.0.0/22'],
      allowed_groups: ['lock-dir'],
    });
    const { users, ids, devices } = await usersWithDevices('ds', 8, 4);
    const synced = users.map((u) => ({
      id: ids.get(u) ?? 0,
      username: u,
      email: `${u}@example.com`,
      firstName: 'T',
      lastName: 'U',
      isActive: true,
      isAdmin: false,
    }));
    const known = new Map(synced.map((s) => [`dir-${s.username}`, s]));
    const { failures, record } = recorder();
    for (let round = 0; round < 4; round++) {
      // Odd rounds: the directory lists every user in the group; even rounds: none of them.
      const members = round % 2 === 1 ? [...known.keys()] : [];
      const client: DirectoryClient = {
        listUsers: async () => [],
        listGroups: async () => [],
        listGroupMembers: async () => members,
      };
      const summary = emptySummary();
      await Promise.all([
        syncGroups(t.database.db, client, [{ id: 'g', name: 'lock-dir' }], known, synced, summary).catch((error: unknown) => {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          failures.push(`sync: ${cause?.code ?? ''} ${cause?.message ?? String(error)}`);
        }),
        ...users.flatMap((u) => deviceWrites(record, u, devices, `ds${round}`)),
      ]);
    }
    expect(failures).toEqual([]);
    // The last round made everyone a member: every device is in both locations.
    expect(await unplaced(users, [low.id, high.id])).toEqual([]);
  });

  it('LDAP sync batches (memberships, disabling) never deadlock with device creations and deletions', async () => {
    expect((await inject('POST', '/api/v1/group', { name: 'lock-ldap' })).statusCode).toBe(201);
    const low = await createLocation(t.app, admin, { address: ['10.100.0.1/22'], allowed_ips: ['10.100.0.0/22'] });
    const high = await createLocation(t.app, admin, {
      address: ['10.101.0.1/22'],
      allowed_ips: ['10.101.0.0/22'],
      allowed_groups: ['lock-ldap'],
    });
    const { users, ids, devices } = await usersWithDevices('ls', 8, 4);
    const { failures, record } = recorder();
    for (let round = 0; round < 4; round++) {
      // Odd rounds add everyone to the group, even rounds remove everyone; the first two users
      // are disabled and enabled again along the way.
      const kind = round % 2 === 1 ? 'add_member' : 'remove_member';
      const changes: PalisadeChange[] = [
        ...users.map((u): PalisadeChange => ({ side: 'palisade', kind, group: 'lock-ldap', username: u })),
        ...users.slice(0, 2).map(
          (u): PalisadeChange => ({
            side: 'palisade',
            kind: round % 2 === 1 ? 'enable_user' : 'disable_user',
            userId: ids.get(u) ?? 0,
            username: u,
          }),
        ),
      ];
      await Promise.all([
        applyPalisadeChanges(t.database.db, SYSTEM_ACTOR, changes).then((outcome) => {
          for (const f of outcome.failed) failures.push(`ldap ${f.change.kind}: ${f.code} ${f.message.slice(0, 160)}`);
        }),
        ...users.flatMap((u) => deviceWrites(record, u, devices, `ls${round}`)),
      ]);
    }
    expect(failures).toEqual([]);
    expect(await unplaced(users, [low.id, high.id])).toEqual([]);
  });
  // A location update and a network device update lock one location, their first lock; these
  // tests keep them that way.
  it('location updates (allowed groups) never deadlock with membership changes and device writes', async () => {
    expect((await inject('POST', '/api/v1/group', { name: 'lock-loc' })).statusCode).toBe(201);
    const low = await createLocation(t.app, admin, { address: ['10.102.0.1/22'], allowed_ips: ['10.102.0.0/22'] });
    const body = locationBody({ name: 'lock-loc-high', address: ['10.103.0.1/22'], allowed_ips: ['10.103.0.0/22'] });
    const created = await inject('POST', '/api/v1/network', body);
    expect(created.statusCode).toBe(201);
    const high = created.json() as { id: number };
    const { users, devices } = await usersWithDevices('lu', 8, 4);
    for (const u of users) expect((await inject('POST', '/api/v1/group/lock-loc', { username: u })).statusCode).toBe(200);
    const { failures, record } = recorder();
    for (let round = 0; round < 4; round++) {
      await Promise.all([
        record(
          'update location',
          200,
          inject('PUT', `/api/v1/network/${high.id}`, { ...body, allowed_groups: round % 2 ? [] : ['lock-loc'] }),
        ),
        ...users.flatMap((u, i) => [
          (round + i) % 2 === 0
            ? record('remove member', 204, inject('DELETE', `/api/v1/group/lock-loc/user/${u}`))
            : record('add member', 200, inject('POST', '/api/v1/group/lock-loc', { username: u })),
          ...deviceWrites(record, u, devices, `lu${round}`),
        ]),
      ]);
    }
    expect(failures).toEqual([]);
    // The last round opened the location to everyone.
    expect(await unplaced(users, [low.id, high.id])).toEqual([]);
  });

  it('network device address updates never deadlock with network device creations and deletions', async () => {
    const location = await createLocation(t.app, admin, { address: ['10.104.0.1/22'], allowed_ips: ['10.104.0.0/22'] });
    const create = async (name: string) => {
      const res = await inject('POST', '/api/v1/device/network', { name, location_id: location.id, wireguard_pubkey: newKey() });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().device.id as number;
    };
    const kept: number[] = [];
    const doomed: number[] = [];
    for (let i = 0; i < 8; i++) kept.push(await create(`nk${i}`));
    for (let i = 0; i < 24; i++) doomed.push(await create(`nd${i}`));
    const { failures, record } = recorder();
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        kept.flatMap((id, i) => {
          const victim = doomed.shift();
          return [
            record(
              'update network device',
              200,
              inject('PUT', `/api/v1/device/network/${id}`, { name: `nk${i}`, assigned_ips: [`10.104.${round + 1}.${10 + i}`] }),
            ),
            record(
              'create network device',
              201,
              inject('POST', '/api/v1/device/network', {
                name: `nn${round}-${i}`,
                location_id: location.id,
                wireguard_pubkey: newKey(),
              }),
            ),
            ...(victim === undefined ? [] : [record('delete network device', 204, inject('DELETE', `/api/v1/device/network/${victim}`))]),
          ];
        }),
      );
    }
    expect(failures).toEqual([]);
    const rows = await t.database.db.execute(sql`
      select host(di.ip) as ip from device_ips di where di.device_id in (${sql.join(kept, sql`, `)}) order by di.device_id`);
    expect((rows as unknown as { rows: { ip: string }[] }).rows.map((r) => r.ip)).toEqual(kept.map((_, i) => `10.104.3.${10 + i}`));
  });
  it('key rotations of user devices never deadlock with location updates and device writes', async () => {
    expect((await inject('POST', '/api/v1/group', { name: 'lock-key' })).statusCode).toBe(201);
    const low = await createLocation(t.app, admin, { address: ['10.105.0.1/22'], allowed_ips: ['10.105.0.0/22'] });
    const body = locationBody({ name: 'lock-key-high', address: ['10.106.0.1/22'], allowed_ips: ['10.106.0.0/22'] });
    const created = await inject('POST', '/api/v1/network', body);
    expect(created.statusCode).toBe(201);
    const high = created.json() as { id: number };
    const { users, devices } = await usersWithDevices('lk', 8, 3);
    const rotating = users.map((u) => devices.get(u)?.pop() ?? 0);
    for (const u of users.slice(0, 4)) expect((await inject('POST', '/api/v1/group/lock-key', { username: u })).statusCode).toBe(200);
    const { failures, record } = recorder();
    for (let round = 0; round < 4; round++) {
      await Promise.all([
        record(
          'update location',
          200,
          inject('PUT', `/api/v1/network/${high.id}`, { ...body, allowed_groups: round % 2 ? [] : ['lock-key'] }),
        ),
        ...users.flatMap((u, i) => [
          record('rotate key', 200, inject('PUT', `/api/v1/device/${rotating[i]}`, { name: `rot-${u}`, wireguard_pubkey: newKey() })),
          ...deviceWrites(record, u, devices, `lk${round}`),
        ]),
      ]);
    }
    expect(failures).toEqual([]);
    expect(await unplaced(users, [low.id, high.id])).toEqual([]);
  });
});
