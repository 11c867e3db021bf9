import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { ADMIN_PASSWORD } from '../../support/constants';
import {
  AgentProcess,
  ApiProcess,
  dropDatabase,
  freePort,
  GiveUp,
  killPids,
  recreateDatabase,
  TcpForwarder,
  waitFor,
  wireguardGoPids,
} from './gateway-lab';
import { Namespace, run } from './host';

/**
 * The setup the gateway system tests share: a `SystemLab` owns what a test starts (namespaces,
 * host veth ends, the API on its own PostgreSQL database, forwarders, the agent, a signed-in
 * request context, a temp dir) and stops all of it by PID/name in `withSystemLab`'s teardown.
 * Plus the small helpers each test needs around it (key pairs, JSON responses, client configs).
 */

export type ApiResponse = Awaited<ReturnType<APIRequestContext['get']>>;

/** Asserts the status (showing the body when it differs) and returns the JSON body (undefined for 204). */
export async function json<T>(response: ApiResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (status === 204 ? undefined : await response.json()) as T;
}

export async function wgKeyPair(): Promise<{ privateKey: string; publicKey: string }> {
  const privateKey = (await run('wg', ['genkey'])).trim();
  return { privateKey, publicKey: (await run('wg', ['pubkey'], `${privateKey}\n`)).trim() };
}

/** Timings worth seeing in the report (annotations) and in the run's output. */
export function note(what: string, ms: number): void {
  test.info().annotations.push({ type: 'timing', description: `${what} ${ms} ms` });
  console.log(`timing: ${what} ${ms} ms`);
}

/** One end of a veth pair: in `ns`, or in the host's namespace when `ns` is undefined. */
export interface VethEnd {
  ns?: Namespace;
  ifname: string;
  /** With its prefix length, e.g. `10.231.7.1/24`. */
  address: string;
}

const inNamespace = (ns: Namespace | undefined, cmd: string, args: string[]) => (ns ? ns.exec(cmd, args) : run(cmd, args));

export interface AgentOptions {
  grpcUrl: string;
  token: string;
  ifname: string;
  statsIntervalS: number;
}

export class SystemLab {
  readonly agent = new AgentProcess();
  readonly dir: string;
  readonly database: string;
  api: ApiProcess | undefined;
  http: APIRequestContext | undefined;
  private readonly namespaces: Namespace[] = [];
  private readonly hostLinks: string[] = [];
  private readonly forwarders: TcpForwarder[] = [];
  private readonly gatewayIfnames: string[] = [];
  private readonly cleanups: (() => Promise<void> | void)[] = [];

  /** `name` tells the test's database (`palisade_system_<name>_<suffix>`) and temp dir apart. */
  constructor(name: string, suffix: string) {
    this.database = `palisade_system_${name}_${suffix}`;
    this.dir = mkdtempSync(join(tmpdir(), `palisade-${name}-sys-`));
  }

  /** Registers a cleanup that runs first in the teardown (e.g. killing processes the test spawned). */
  onTeardown(cleanup: () => Promise<void> | void): void {
    this.cleanups.push(cleanup);
  }

  async namespace(name: string): Promise<Namespace> {
    const ns = await Namespace.create(name);
    this.namespaces.push(ns);
    return ns;
  }

  /** Creates a veth pair from `a` to `b`, gives each end its address and brings it up. */
  async veth(a: VethEnd, b: VethEnd & { ns: Namespace }): Promise<void> {
    await run('ip', [
      ...(a.ns ? ['-n', a.ns.name] : []),
      'link',
      'add',
      a.ifname,
      'type',
      'veth',
      'peer',
      'name',
      b.ifname,
      'netns',
      b.ns.name,
    ]);
    if (!a.ns) this.hostLinks.push(a.ifname);
    for (const end of [a, b]) {
      await inNamespace(end.ns, 'ip', ['addr', 'add', end.address, 'dev', end.ifname]);
      await inNamespace(end.ns, 'ip', ['link', 'set', end.ifname, 'up']);
    }
  }

  /** The built API on a fresh database of its own, with a free HTTP and gRPC port; returns the gRPC port. */
  async startApi(env: Record<string, string> = {}): Promise<{ api: ApiProcess; grpcPort: number }> {
    const grpcPort = await freePort();
    const api = new ApiProcess(await freePort(), {
      DATABASE_URL: await recreateDatabase(this.database),
      DATA_DIR: this.dir,
      SECRET_KEY: 'system-test-secret-key-system-test-secret-key',
      ADMIN_PASSWORD,
      GRPC_PORT: String(grpcPort),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      // No release feed on the lab's network: the product would only log that it cannot reach it.
      UPDATE_CHECK_ENABLED: 'false',
      ...env,
    });
    this.api = api;
    await api.start();
    return { api, grpcPort };
  }

  /** A request context on the API, signed in as the admin. */
  async signInAdmin(): Promise<APIRequestContext> {
    if (!this.api) throw new Error('start the API first');
    this.http = await request.newContext({ baseURL: this.api.url });
    expect((await this.http.post('/api/v1/auth', { data: { username: 'admin', password: ADMIN_PASSWORD } })).status()).toBe(200);
    return this.http;
  }

  /** Forwards `host:<free port>` (a host veth address) to the API's loopback `targetPort`. */
  async forward(host: string, targetPort: number): Promise<TcpForwarder> {
    const forwarder = await TcpForwarder.start(host, targetPort);
    this.forwarders.push(forwarder);
    return forwarder;
  }

  /**
   * Runs the agent as an operator does (flags) on wireguard-go in `gw`, and waits until
   * `isReady` says it applied the location; the agent exiting meanwhile fails at once.
   */
  async startAgent(gw: Namespace, options: AgentOptions, what: string, isReady: () => Promise<boolean>): Promise<void> {
    this.gatewayIfnames.push(options.ifname);
    this.agent.start(gw.name, [
      ...['--grpc-url', options.grpcUrl, '--token', options.token],
      ...['--ifname', options.ifname, '--userspace', 'always', '--stats-interval', String(options.statsIntervalS), '--health-port', '0'],
    ]);
    await waitFor(
      what,
      async () => {
        if (this.agent.exitCode !== null) throw new GiveUp(`agent exited with ${this.agent.exitCode}:\n${this.agent.output.join('\n')}`);
        return (await isReady()) ? true : undefined;
      },
      30_000,
    );
  }

  /** The agent's and the API's last lines: they make a failure readable. */
  printOutput(): void {
    console.log(
      `--- agent output\n${this.agent.output.slice(-40).join('\n')}\n--- API output\n${this.api?.output.slice(-20).join('\n') ?? ''}`,
    );
  }

  async teardown(): Promise<void> {
    for (const cleanup of this.cleanups) await cleanup();
    await this.http?.dispose();
    await this.agent.stop();
    for (const ifname of this.gatewayIfnames) killPids(wireguardGoPids(ifname));
    for (const forwarder of this.forwarders) await forwarder.close();
    await this.api?.stop();
    for (const ns of this.namespaces.reverse()) await ns.destroy();
    for (const link of this.hostLinks) await run('ip', ['link', 'del', link]).catch(() => undefined);
    await dropDatabase(this.database);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs `body` with a fresh lab; prints the agent's and API's output on failure and always tears the lab down. */
export async function withSystemLab(name: string, suffix: string, body: (lab: SystemLab) => Promise<void>): Promise<void> {
  const lab = new SystemLab(name, suffix);
  try {
    await body(lab);
  } catch (error) {
    lab.printOutput();
    throw error;
  } finally {
    await lab.teardown();
  }
}

/** The `wg show <ifname> dump` of the gateway interface. */
export async function gatewayDump(gw: Namespace, ifname: string): Promise<string> {
  return (await gw.exec('wg', ['show', ifname, 'dump'])).trim();
}

/** Whether the gateway interface listens on `port` (the first line of its dump). */
export async function listensOn(gw: Namespace, ifname: string, port: number): Promise<boolean> {
  return (await gatewayDump(gw, ifname)).split('\n')[0]?.split('\t')[2] === String(port);
}

/** A device's wg-quick config for a location, downloaded through the API, its private key filled in. */
export async function downloadConfig(http: APIRequestContext, locationId: number, deviceId: number, privateKey: string): Promise<string> {
  const download = await http.get(`/api/v1/network/${locationId}/device/${deviceId}/config`);
  expect(download.status()).toBe(200);
  return (await download.text()).replace(/^PrivateKey = .*$/m, `PrivateKey = ${privateKey}`);
}

/** The IPv4 values of a config's `name = a, b` line (the namespaces here have no IPv6 routes). */
export function ipv4Field(config: string, name: string): string[] {
  return (new RegExp(`^${name}\\s*=\\s*(.+)$`, 'm').exec(config)?.[1] ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v && !v.includes(':'));
}

/** `wg setconf` of a wg-quick config (stripped by wg-quick, through files in `dir`) on `ifname` in `ns`. */
export async function setClientConfig(ns: Namespace, ifname: string, config: string, dir: string): Promise<void> {
  const file = join(dir, `${ifname}.conf`);
  writeFileSync(file, config, { mode: 0o600 });
  writeFileSync(join(dir, `${ifname}.stripped`), await run('wg-quick', ['strip', file]), { mode: 0o600 });
  await ns.exec('wg', ['setconf', ifname, join(dir, `${ifname}.stripped`)]);
}

/** A client's tunnel in `ns`: wireguard-go for `ifname`, the config, its addresses, the interface up, its routes. */
export async function bringUpClient(ns: Namespace, ifname: string, config: string, dir: string): Promise<void> {
  await ns.startWireguardGo(ifname);
  await setClientConfig(ns, ifname, config, dir);
  for (const address of ipv4Field(config, 'Address')) await ns.exec('ip', ['addr', 'add', address, 'dev', ifname]);
  await ns.exec('ip', ['link', 'set', ifname, 'up']);
  for (const net of ipv4Field(config, 'AllowedIPs')) await ns.exec('ip', ['route', 'replace', net, 'dev', ifname]);
}
