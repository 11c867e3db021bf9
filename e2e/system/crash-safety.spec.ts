import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { runBurst, modelsInDatabase } from './support/crash-burst';
import { brokenInvariants, sqlRows } from './support/crash-checks';
import { uapiPeers } from './support/crash-uapi';
import { buildAgent, databaseUrl, parsePeers, waitFor, wireguardGoPids } from './support/gateway-lab';
import { type Namespace, requireRoot, uniqueSuffix } from './support/host';
import { gatewayDump, json, listensOn, note, type SystemLab, withSystemLab } from './support/system-lab';

/**
 * Issue "Operations" §4: kill -9 at the worst moments leaves nothing to repair by hand.
 *
 * 1. The API (its own process on PostgreSQL, a real agent connected so acks and stats flow) is
 *    killed during a burst of concurrent writes — user devices (address allocation in two
 *    locations, one restricted to a group), network devices, group membership changes, user
 *    creations and deletions, device deletions — after N answers, with requests in flight. The
 *    database then holds every answered write (and at most the in-flight ones), and the invariants
 *    of support/crash-checks.ts hold (addresses, allocation bookkeeping, placement, counters,
 *    orphans, gateway revisions, event outbox). Restarted on the same database, the API is ready
 *    and the agent (reconnecting on its own) converges to the location's devices.
 * 2. The agent is killed mid-apply: a location of 1,500 network devices (inserted in SQL) is
 *    replaced by 1,500 others in one transaction; the agent removes peers in chunks before adding
 *    the new ones in one call, so "mid-apply" is seen on the interface (polled through its control
 *    socket) as fewer peers than either set. wireguard-go outlives the agent with a half-configured
 *    interface; the agent restarted with the same flags converges to the new set. Then the agent
 *    and wireguard-go die together (a stale control socket stays), and the agent dies while
 *    creating its interface (wireguard-go started, the link still down): each time the restarted
 *    agent converges, the link up.
 */
const suffix = uniqueSuffix();
const S = Number(suffix) % 250;
const GROUP = 'crash-group';

async function gatewayLab(lab: SystemLab, hostNet: string) {
  const gw = await lab.namespace(`pgw-crash-${hostNet.split('.')[1]}-${suffix}`);
  await lab.veth(
    { ifname: `pch${hostNet.split('.')[1]}${suffix}`.slice(0, 15), address: `${hostNet}.1/24` },
    { ns: gw, ifname: `pcg${suffix}`, address: `${hostNet}.2/24` },
  );
  const { api, grpcPort } = await lab.startApi();
  const forwarder = await lab.forward(`${hostNet}.1`, grpcPort);
  const http = await lab.signInAdmin();
  return { gw, api, http, grpcUrl: `http://${hostNet}.1:${forwarder.port}`, dbUrl: databaseUrl(lab.database) };
}

/** The location's peers as the database says the gateway must hold them: key → sorted allowed IPs. */
async function expectedPeers(dbUrl: string, locationId: number): Promise<Map<string, string>> {
  const rows = await sqlRows(
    dbUrl,
    `select d.wireguard_pubkey, string_agg(host(i.ip) || case when family(i.ip) = 4 then '/32' else '/128' end, ',')
       from device_ips i join devices d on d.id = i.device_id where i.location_id = ${locationId} group by 1`,
  );
  return new Map(rows.map((r) => r.split('|') as [string, string]).map(([k, ips]) => [k, ips.split(',').sort().join(',')]));
}

function samePeers(expected: Map<string, string>, dump: string): boolean {
  const actual = parsePeers(dump);
  if (actual.size !== expected.size) return false;
  for (const [key, ips] of expected) if (actual.get(key)?.allowedIps.slice().sort().join(',') !== ips) return false;
  return true;
}

test('an API killed during a burst of writes leaves a consistent database, and the gateway converges after the restart', async () => {
  test.setTimeout(120_000);
  requireRoot();
  await buildAgent();
  await withSystemLab('crashapi', suffix, async (lab) => {
    const { gw, api, http, grpcUrl, dbUrl } = await gatewayLab(lab, `10.234.${S}`);
    const ifname = `pca${suffix}`;
    const listenPort = 52000 + (Number(suffix) % 1000);
    await json(await http.post('/api/v1/group', { data: { name: GROUP } }), 201);
    const location = await json<{ id: number }>(
      await http.post('/api/v1/network', {
        data: {
          name: `crash-a-${suffix}`,
          address: ['10.240.0.1/20'],
          endpoint: `10.234.${S}.2`,
          port: listenPort,
          dns: [],
          allowed_ips: ['10.240.0.0/20'],
          keepalive_interval: 25,
        },
      }),
      201,
    );
    // A second location, for the group's members only, with two networks: group changes move addresses.
    await json(
      await http.post('/api/v1/network', {
        data: {
          name: `crash-b-${suffix}`,
          address: ['10.241.0.1/22', 'fd00:241::1/64'],
          endpoint: 'crash-b.example',
          port: listenPort + 1,
          dns: [],
          allowed_ips: ['10.241.0.0/22'],
          allowed_groups: [GROUP],
        },
      }),
      201,
    );
    const token = await json<{ token: string }>(await http.get(`/api/v1/network/${location.id}/token`), 200);
    await lab.startAgent(gw, { grpcUrl, token: token.token, ifname, statsIntervalS: 1 }, 'the agent to apply the location', () =>
      listensOn(gw, ifname, listenPort),
    );

    // --- The burst; SIGKILL from the answer that makes N, with the other workers' requests in flight
    const pid = api.pid!;
    const workers = 12;
    const started = Date.now();
    const burst = await runBurst({
      http,
      workers,
      perWorker: 200,
      group: GROUP,
      locationId: location.id,
      killAfter: 150,
      kill: () => process.kill(pid, 'SIGKILL'),
    });
    await api.kill('SIGKILL');
    note('burst until the kill', Date.now() - started);
    console.log(`crash: ${burst.answered} answered, ${burst.inFlightAtKill} in flight at the kill`);
    expect(burst.unexpected).toEqual([]);
    expect(burst.inFlightAtKill).toBeGreaterThanOrEqual(4);

    // --- The database as the crash left it
    expect(await brokenInvariants(dbUrl)).toEqual({});
    const inDatabase = await modelsInDatabase(dbUrl, workers, GROUP);
    for (let w = 0; w < workers; w++) {
      // Every answered write is there; of the unanswered, at most the one in flight.
      const allowed = [burst.acked[w]!.canonical(), burst.withPending[w]?.canonical()].filter(Boolean);
      expect(allowed, `worker ${w}`).toContain(inDatabase[w]!.canonical());
    }

    // --- While the API is down, the database changes under it (a device of the location goes)
    const gone = await sqlRows(
      dbUrl,
      `delete from devices where id = (select device_id from device_ips where location_id = ${location.id} order by device_id limit 1) returning wireguard_pubkey`,
    );
    expect(gone).toHaveLength(1);

    // --- Restart on the same database: ready, and the agent (reconnecting on its own) converges
    const restarted = Date.now();
    await api.start();
    await waitFor('readiness', async () => ((await fetch(`${api.url}/api/v1/health/ready`)).status === 200 ? true : undefined), 30_000);
    const expected = await expectedPeers(dbUrl, location.id);
    expect(expected.size).toBeGreaterThan(0);
    expect(expected.has(gone[0]!)).toBe(false);
    await waitFor(
      'the gateway to hold the location devices',
      async () => (samePeers(expected, await gatewayDump(gw, ifname)) ? true : undefined),
      60_000,
      200,
    );
    await waitFor(
      'the gateway to acknowledge the current revision',
      async () => {
        const rows = await sqlRows(
          dbUrl,
          `select g.acknowledged_revision = s.revision and g.acknowledged_epoch = s.revision_epoch
                   and g.connected_at > to_timestamp(${restarted / 1000})
             from gateways g join gateway_location_state s on s.location_id = g.location_id where g.location_id = ${location.id}`,
        );
        return rows.length > 0 && rows.every((r) => r === 't') ? true : undefined;
      },
      30_000,
      200,
    );
    note('restart until the gateway converged', Date.now() - restarted);
    expect(await brokenInvariants(dbUrl)).toEqual({});
  });
});

const BULK = 1_500;

/** The agent's flags as SystemLab.startAgent passes them. */
const agentFlags = (o: { grpcUrl: string; token: string; ifname: string; statsIntervalS: number }) => [
  ...['--grpc-url', o.grpcUrl, '--token', o.token, '--ifname', o.ifname],
  ...['--userspace', 'always', '--stats-interval', String(o.statsIntervalS), '--health-port', '0'],
];

/** Whether the link is administratively up. */
async function linkUp(gw: Namespace, ifname: string): Promise<boolean> {
  const [link] = JSON.parse(await gw.exec('ip', ['-j', 'link', 'show', 'dev', ifname])) as { flags?: string[] }[];
  return link?.flags?.includes('UP') ?? false;
}

/** Inserts `BULK` network devices of the location, each with one address, in one statement. */
const insertBulk = (locationId: number, prefix: string) => `
  with d as (
    insert into devices (kind, name, wireguard_pubkey, location_id, added_by)
    select 'network', '${prefix}-' || g, encode(decode(md5(random()::text) || md5(random()::text), 'hex'), 'base64'), ${locationId}, 'admin'
      from generate_series(1, ${BULK}) g
    returning id, name)
  insert into device_ips (location_id, ip, device_id)
  select ${locationId}, '10.242.0.2'::inet + substring(name from '[0-9]+$')::int, id from d;`;

test('a gateway agent killed mid-apply converges after its restart, without manual steps', async () => {
  test.setTimeout(120_000);
  requireRoot();
  await buildAgent();
  await withSystemLab('crashgw', suffix, async (lab) => {
    const { gw, http, grpcUrl, dbUrl } = await gatewayLab(lab, `10.235.${S}`);
    const ifname = `pcb${suffix}`;
    const listenPort = 53000 + (Number(suffix) % 1000);
    const location = await json<{ id: number }>(
      await http.post('/api/v1/network', {
        data: {
          name: `crash-c-${suffix}`,
          address: ['10.242.0.1/16'],
          endpoint: `10.235.${S}.2`,
          port: listenPort,
          dns: [],
          allowed_ips: ['10.242.0.0/16'],
        },
      }),
      201,
    );
    await sqlRows(dbUrl, insertBulk(location.id, 'old'));
    const token = await json<{ token: string }>(await http.get(`/api/v1/network/${location.id}/token`), 200);
    const options = { grpcUrl, token: token.token, ifname, statsIntervalS: 1 };
    await lab.startAgent(gw, options, `the agent to apply ${BULK} peers`, async () => (await uapiPeers(ifname)).length === BULK);

    // --- Replace every device in one transaction; kill the agent as soon as the interface is between the two sets
    let caught: number | undefined;
    for (let attempt = 1; attempt <= 8 && caught === undefined; attempt++) {
      const prefix = `gen${attempt}`;
      const previous = new Set(await uapiPeers(ifname));
      await sqlRows(
        dbUrl,
        `begin; delete from devices where location_id = ${location.id} and kind = 'network'; ${insertBulk(location.id, prefix)} commit;`,
      );
      const next = await expectedPeers(dbUrl, location.id);
      const seen = await waitFor(
        'the agent to start applying the new set',
        async () => {
          const peers = await uapiPeers(ifname);
          if (peers.length === BULK && peers.every((k) => previous.has(k))) return undefined; // not started
          return peers;
        },
        30_000,
        0,
      );
      if (seen.length < BULK) {
        await lab.agent.kill('SIGKILL');
        caught = seen.length;
        test.info().annotations.push({
          type: 'crash',
          description: `agent killed mid-apply with ${seen.length} of ${BULK} peers (attempt ${attempt})`,
        });
        console.log(`crash: agent killed mid-apply with ${seen.length} of ${BULK} peers on the interface (attempt ${attempt})`);
      } else {
        // The whole apply fell between two polls: try again with another set.
        await waitFor(
          'the agent to finish the apply',
          async () => (samePeers(next, await gatewayDump(gw, ifname)) ? true : undefined),
          30_000,
        );
      }
    }
    expect(caught, 'the agent was killed with the interface between the two peer sets').toBeDefined();

    // --- wireguard-go survives (it runs detached), the interface half-configured; the restarted agent converges
    const survivors = wireguardGoPids(ifname);
    console.log(`crash: wireguard-go ${survivors.length > 0 ? `survived (${survivors.join(',')})` : 'did not survive'}`);
    const expected = await expectedPeers(dbUrl, location.id);
    const restarted = Date.now();
    await lab.startAgent(gw, options, 'the restarted agent to converge to the new set', async () =>
      samePeers(expected, await gatewayDump(gw, ifname)),
    );
    note('agent restart until converged', Date.now() - restarted);
    expect(await listensOn(gw, ifname, listenPort)).toBe(true);
    expect(wireguardGoPids(ifname).length).toBe(1);

    // --- The agent and wireguard-go both killed (e.g. by the OOM killer): the interface goes with
    // wireguard-go, its control socket stays behind; the restarted agent recreates the interface.
    await lab.agent.kill('SIGKILL');
    for (const pid of wireguardGoPids(ifname)) process.kill(pid, 'SIGKILL');
    await waitFor('wireguard-go to be gone', async () => (wireguardGoPids(ifname).length === 0 ? true : undefined), 10_000);
    console.log(`crash: control socket ${existsSync(`/var/run/wireguard/${ifname}.sock`) ? 'left behind' : 'removed'}`);
    const recreated = Date.now();
    await lab.startAgent(gw, options, 'the agent to recreate the interface with the full set', async () =>
      samePeers(expected, await gatewayDump(gw, ifname).catch(() => '')),
    );
    note('agent restart after wireguard-go died until converged', Date.now() - recreated);
    expect(await listensOn(gw, ifname, listenPort)).toBe(true);
    expect(wireguardGoPids(ifname).length).toBe(1);

    // --- Killed while creating the interface: wireguard-go has started, the link is not up yet
    let down = false;
    for (let attempt = 1; attempt <= 4 && !down; attempt++) {
      await lab.agent.kill('SIGKILL');
      for (const pid of wireguardGoPids(ifname)) process.kill(pid, 'SIGKILL');
      await waitFor('wireguard-go to be gone', async () => (wireguardGoPids(ifname).length === 0 ? true : undefined), 10_000);
      lab.agent.start(gw.name, agentFlags(options));
      await waitFor('wireguard-go to start', async () => (wireguardGoPids(ifname).length > 0 ? true : undefined), 30_000, 1);
      await lab.agent.kill('SIGKILL');
      down = !(await linkUp(gw, ifname).catch(() => true));
      console.log(`crash: agent killed while creating the interface (attempt ${attempt}): link ${down ? 'down' : 'already up'}`);
    }
    if (!down) {
      // Every kill came after the link went up: leave it as such a kill does.
      await gw.exec('ip', ['link', 'set', 'dev', ifname, 'down']);
      console.log('crash: link set down by hand, as a kill before `ip link set up` leaves it');
    }
    await lab.startAgent(
      gw,
      options,
      'the restarted agent to bring the link up with the full set',
      async () => (await linkUp(gw, ifname)) && samePeers(expected, await gatewayDump(gw, ifname)),
    );
  });
});
