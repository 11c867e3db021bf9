import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD } from '../support/constants';
import { Namespace, requireRoot, run, uniqueSuffix } from './support/host';

/**
 * Issue "Locations and devices" §7: a config downloaded through the API, with the private key
 * filled in, is accepted by the real WireGuard tooling (wg-quick strip, then wg setconf on a
 * wireguard-go interface in a network namespace).
 */
test('a downloaded device config is accepted by wg-quick strip and wg setconf', async ({ request }) => {
  requireRoot();
  expect((await request.post('/api/v1/auth', { data: { username: 'admin', password: ADMIN_PASSWORD } })).status()).toBe(200);
  const location = await request.post('/api/v1/network', {
    data: {
      name: `sys-${uniqueSuffix()}`,
      address: ['10.123.0.1/24', 'fd12:3::1/64'],
      endpoint: '127.0.0.1',
      port: 51820,
      dns: ['10.123.0.1'],
      allowed_ips: ['10.123.0.0/24', 'fd12:3::/64'],
      keepalive_interval: 25,
    },
  });
  expect(location.status()).toBe(201);
  const network = await location.json();

  const privateKey = (await run('wg', ['genkey'])).trim();
  const publicKey = (await run('wg', ['pubkey'], `${privateKey}\n`)).trim();
  const created = await request.post('/api/v1/device/admin', { data: { name: 'system-laptop', wireguard_pubkey: publicKey } });
  expect(created.status()).toBe(201);
  const { device } = await created.json();

  const download = await request.get(`/api/v1/network/${network.id}/device/${device.id}/config`);
  expect(download.status()).toBe(200);
  const text = (await download.text()).replace(/^PrivateKey = .*$/m, `PrivateKey = ${privateKey}`);

  const ifname = `pwg${uniqueSuffix()}`;
  const dir = mkdtempSync(join(tmpdir(), 'palisade-wg-'));
  const file = join(dir, `${ifname}.conf`);
  writeFileSync(file, text, { mode: 0o600 });
  const stripped = await run('wg-quick', ['strip', file]);
  expect(stripped).not.toMatch(/^(Address|DNS)\s*=/m);
  const strippedFile = join(dir, 'stripped.conf');
  writeFileSync(strippedFile, stripped, { mode: 0o600 });

  const ns = await Namespace.create(`palisade-sys-${uniqueSuffix()}`);
  try {
    await ns.startWireguardGo(ifname);
    await ns.exec('wg', ['setconf', ifname, strippedFile]);
    expect((await ns.exec('wg', ['show', ifname, 'public-key'])).trim()).toBe(publicKey);
    const dump = (await ns.exec('wg', ['show', ifname, 'dump'])).trim().split('\n');
    const peer = dump[1]?.split('\t') ?? [];
    expect(peer[0]).toBe(network.pubkey);
    expect(peer[2]).toBe('127.0.0.1:51820');
    expect(peer[3]?.split(',').sort()).toEqual(['10.123.0.0/24', 'fd12:3::/64']);
    expect(peer[7]).toBe('25');
  } finally {
    await ns.destroy();
  }
});
