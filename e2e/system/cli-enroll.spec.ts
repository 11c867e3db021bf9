import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildAgent, killPids, parsePeers, REPO_ROOT, waitFor } from './support/gateway-lab';
import { type Namespace, requireRoot, run, uniqueSuffix } from './support/host';
import { gatewayDump, json, listensOn, withSystemLab } from './support/system-lab';

/**
 * Issue 15 §3: a server enrols itself with one command. An admin issues a CLI token for a network
 * device that does not exist yet; `palisade enroll --up` (the built CLI bundle) runs in a network
 * namespace, generates its key there, redeems the token through the API and brings the tunnel up
 * with wg-quick (which falls back to wireguard-go: no kernel module here). The machine then pings
 * the location's address through the real agent; `palisade status` shows the handshake, and
 * `palisade down` takes the tunnel down. The spent token is refused on a second run.
 *
 *   host (API, forwarders on 10.236.S.1 and 10.237.S.1) ─ veth ─ gateway ns (agent, wireguard-go,
 *   10.236.S.2; 10.238.S.1) ─ veth ─ server ns (10.238.S.2; palisade enroll) ─ veth ─ host
 *   (the server reaches the API's HTTP port through 10.237.S.1)
 */
const suffix = uniqueSuffix();
const S = Number(suffix) % 250;
const GATEWAY_IF = `pcg${suffix}`;
const SERVER_IF = `pcs${suffix}`;
const TUNNEL_GATEWAY_IP = `10.239.${S}.1`;
const CLI = `${REPO_ROOT}apps/cli/bin/palisade.mjs`;

/** Runs the CLI inside the namespace; resolves with its exit code and output (never throws on exit codes). */
function palisade(ns: Namespace, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('ip', ['netns', 'exec', ns.name, process.execPath, CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

/** PIDs of wireguard-go daemons wg-quick started for `ifname` (argv `wireguard-go <ifname>`). */
function daemonPids(ifname: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv[0]?.endsWith('wireguard-go') && argv.at(-1) === ifname) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

test('palisade enroll --up in a namespace: the server reaches the location through the real agent', async () => {
  test.setTimeout(180_000);
  requireRoot();
  await buildAgent();
  await run(process.execPath, [`${REPO_ROOT}apps/cli/scripts/build.mjs`]);
  await withSystemLab('cli', suffix, async (lab) => {
    lab.onTeardown(() => killPids(daemonPids(SERVER_IF)));
    const configDir = join(lab.dir, 'wireguard');
    // --- Topology: host ── gateway ns ── server ns ── host
    const gw = await lab.namespace(`pcl-sys-gw-${suffix}`);
    const server = await lab.namespace(`pcl-sys-sv-${suffix}`);
    await lab.veth(
      { ifname: `pch${suffix}`, address: `10.236.${S}.1/24` },
      { ns: gw, ifname: `pcj${suffix}`, address: `10.236.${S}.2/24` },
    );
    await lab.veth(
      { ns: gw, ifname: `pcu${suffix}`, address: `10.238.${S}.1/24` },
      { ns: server, ifname: `pcv${suffix}`, address: `10.238.${S}.2/24` },
    );
    await lab.veth(
      { ifname: `pck${suffix}`, address: `10.237.${S}.1/24` },
      { ns: server, ifname: `pcw${suffix}`, address: `10.237.${S}.2/24` },
    );

    // --- The API; its gRPC port for the gateway, its HTTP port for the enrolling server
    const { api, grpcPort } = await lab.startApi();
    const grpc = await lab.forward(`10.236.${S}.1`, grpcPort);
    const web = await lab.forward(`10.237.${S}.1`, api.port);
    const http = await lab.signInAdmin();

    const listenPort = 52000 + (Number(suffix) % 1000);
    const location = await json<{ id: number; pubkey: string }>(
      await http.post('/api/v1/network', {
        data: {
          name: `cli-sys-${suffix}`,
          address: [`${TUNNEL_GATEWAY_IP}/24`],
          endpoint: `10.238.${S}.1`,
          port: listenPort,
          // A DNS server: this host has no resolvconf, so the CLI must bring the tunnel up without it.
          dns: [TUNNEL_GATEWAY_IP],
          allowed_ips: [`10.239.${S}.0/24`],
          keepalive_interval: 25,
        },
      }),
      201,
    );
    const gatewayToken = await json<{ token: string }>(await http.get(`/api/v1/network/${location.id}/token`), 200);
    const grpcUrl = `http://10.236.${S}.1:${grpc.port}`;
    await lab.startAgent(
      gw,
      { grpcUrl, token: gatewayToken.token, ifname: GATEWAY_IF, statsIntervalS: 1 },
      'the agent to apply the location',
      () => listensOn(gw, GATEWAY_IF, listenPort),
    );

    // --- The admin announces the server and issues its CLI token
    const issued = await json<{ token: string }>(
      await http.post('/api/v1/device/network/start_cli', { data: { name: `srv-${suffix}`, location_id: location.id } }),
      201,
    );

    // --- On the server: one command
    const url = `http://10.237.${S}.1:${web.port}`;
    const enrolled = await palisade(server, [
      ...['enroll', '--url', url, '--token', issued.token],
      ...['--interface', SERVER_IF, '--config-dir', configDir, '--up'],
    ]);
    expect(enrolled.code, enrolled.out).toBe(0);
    expect(enrolled.out).toContain(`${SERVER_IF} is up`);
    expect(enrolled.out).toContain('without its DNS servers');
    const file = join(configDir, `${SERVER_IF}.conf`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const privateKey = /^PrivateKey = (.+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
    const publicKey = (await run('wg', ['pubkey'], `${privateKey}\n`)).trim();

    // The device exists with the key made on the server, and is no longer pending.
    const devices = await json<{ items: { name: string; wireguard_pubkey: string }[] }>(
      await http.get(`/api/v1/device/network?search=srv-${suffix}`),
      200,
    );
    expect(devices.items.map((d) => [d.name, d.wireguard_pubkey])).toEqual([[`srv-${suffix}`, publicKey]]);
    expect(await json<unknown[]>(await http.get('/api/v1/device/network/pending'), 200)).toEqual([]);

    // --- Through the real agent
    await waitFor('the server on the gateway', async () => parsePeers(await gatewayDump(gw, GATEWAY_IF)).get(publicKey), 10_000, 50);
    await waitFor(
      'a ping through the tunnel',
      async () => ((await server.exec('ping', ['-c', '1', '-W', '2', TUNNEL_GATEWAY_IP]).catch(() => undefined)) ? true : undefined),
      20_000,
      200,
    );
    const status = await palisade(server, ['status', '--interface', SERVER_IF, '--config-dir', configDir]);
    expect(status.code, status.out).toBe(0);
    expect(status.out).toContain(`${SERVER_IF}: up`);
    expect(status.out).toContain(`peer ${location.pubkey}`);
    expect(status.out).toMatch(/latest handshake: \d+ s ago/);

    // --- The spent token is refused with the CLI's explanation, and nothing is overwritten
    const again = await palisade(server, [
      ...['enroll', '--url', url, '--token', issued.token],
      ...['--interface', `${SERVER_IF}b`, '--config-dir', configDir],
    ]);
    expect(again.code).toBe(1);
    expect(again.out).toContain('unknown, already used or expired');

    // --- Down
    const down = await palisade(server, ['down', '--interface', SERVER_IF, '--config-dir', configDir]);
    expect(down.code, down.out).toBe(0);
    await waitFor(
      'the server interface to disappear',
      async () => ((await server.exec('ip', ['link', 'show', SERVER_IF]).catch(() => 'gone')) === 'gone' ? true : undefined),
      10_000,
    );
    await expect(server.exec('ping', ['-c', '1', '-W', '1', TUNNEL_GATEWAY_IP])).rejects.toThrow();
  });
});
