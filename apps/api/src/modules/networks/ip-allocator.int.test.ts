import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { createLocation } from '#test/network-fixtures.js';
import { allocateIp, findFreeIp } from './ip-allocator.js';
import { NetworksRepo } from './networks.repo.js';

/** The allocation function at the edges of the address space (ADR-004, migration 0007). */
describe('palisade_allocate_ip', () => {
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

  /** Allocates in its own transaction and records the address as taken, like a device create. */
  const take = (locationId: number, address: string, reserved?: string[]) =>
    t.database.db.transaction(async (tx) => {
      const repo = new NetworksRepo(tx as never);
      const ip = await allocateIp(repo, locationId, address, reserved ? new Set(reserved) : undefined);
      await tx.execute(
        `insert into devices (kind, name, wireguard_pubkey, location_id) values ('network', 'n-${ip}', 'k-${ip}', ${locationId})`,
      );
      await tx.execute(
        `insert into device_ips (location_id, ip, device_id) select ${locationId}, '${ip}', id from devices where name = 'n-${ip}'`,
      );
      return ip;
    });
  const suggest = (locationId: number, address: string) => findFreeIp(new NetworksRepo(t.database.db), locationId, address);

  it('a /30 has one assignable address besides its own; then the network is full', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.9.0.1/30'], allowed_ips: ['10.9.0.0/30'], dns: [] });
    expect(await take(loc.id, '10.9.0.1/30')).toBe('10.9.0.2');
    await expect(take(loc.id, '10.9.0.1/30')).rejects.toMatchObject({ status: 409, code: 'network.full' });
    expect(await suggest(loc.id, '10.9.0.1/30')).toBeUndefined();
  });

  it('IPv6 at the very top of the address space: hands out the last address, then reports full (no overflow)', async () => {
    const address = 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffd/126';
    const loc = await createLocation(t.app, admin, { address: [address], allowed_ips: ['::/0'], dns: [] });
    expect(await take(loc.id, address)).toBe('ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe');
    expect(await take(loc.id, address)).toBe('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff');
    await expect(take(loc.id, address)).rejects.toMatchObject({ code: 'network.full' });
  });

  it('skips reserved addresses and keeps them as holes for later; a suggestion takes nothing', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.8.0.1/24'], allowed_ips: ['10.8.0.0/24'], dns: [] });
    expect(await take(loc.id, '10.8.0.1/24', ['10.8.0.2', '10.8.0.3'])).toBe('10.8.0.4');
    expect(await suggest(loc.id, '10.8.0.1/24')).toBe('10.8.0.2');
    expect(await suggest(loc.id, '10.8.0.1/24')).toBe('10.8.0.2');
    expect(await take(loc.id, '10.8.0.1/24')).toBe('10.8.0.2');
    expect(await take(loc.id, '10.8.0.1/24')).toBe('10.8.0.3');
    expect(await take(loc.id, '10.8.0.1/24')).toBe('10.8.0.5');
  });
});
