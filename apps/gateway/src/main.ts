import type { Server } from 'node:http';
import { createCommandRunner } from './adapters/command-runner.js';
import { createNftFirewall } from './adapters/nft-firewall.js';
import { createKernelLink, createWireGuard } from './adapters/wireguard-kernel.js';
import { type Config, ConfigError, OPTIONS, parseCommandLine, USAGE } from './config.js';
import { createAgent, type Agent } from './control/agent.js';
import { runSession } from './control/session.js';
import { createControlTransport } from './control/transport.js';
import { readEnvironment } from './env.js';
import { startHealthServer } from './health.js';
import { GatewayMetrics } from './metrics.js';
import { gatewayIdentity } from './identity.js';
import { checkInterface, checkTools, findExecutable, readCaFile } from './preflight.js';
import { AGENT_VERSION } from './version.js';

/**
 * palisade-gateway: wires configuration, the WireGuard adapter, the agent, /health and the
 * dial-out session. On SIGINT/SIGTERM it stops talking to the control plane but leaves the
 * interface as it is (fail-open; wireguard-go keeps running detached).
 *
 * Exit codes: 0 after a signal (or --help/--version); 1 when a setting is bad or the host cannot
 * run the agent (the message names the variable or the missing tool), or on an unexpected error.
 */
const log = (message: string) => console.log(`${new Date().toISOString()} ${message}`);

async function listenHealth(config: Config, agent: Agent, metrics: GatewayMetrics): Promise<Server> {
  try {
    return await startHealthServer(config.healthPort, agent.status, '0.0.0.0', metrics);
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'is already in use' : `cannot be used: ${(e as Error).message}`;
    throw new ConfigError(`${OPTIONS.healthPort.env} (${OPTIONS.healthPort.flag}): port ${config.healthPort} ${reason}`);
  }
}

async function run(config: Config, path: string | undefined): Promise<void> {
  const ca = config.caFile === undefined ? undefined : readCaFile(config.caFile);
  checkTools(config, path);
  const runner = createCommandRunner();
  const wireguard = createWireGuard(config.userspace, runner, config.ifname);
  const kernelLink = createKernelLink(runner, config.ifname);
  const existing = await checkInterface(config, wireguard, {
    hasWireguardGo: findExecutable('wireguard-go', path) !== undefined,
    createLink: () => kernelLink.create(),
  });
  if (existing.state.exists)
    log(`found ${config.ifname} (${wireguard.implementation()}) with ${existing.state.peers.size} peer(s); kept until the first snapshot`);
  const hasNft = findExecutable('nft', path) !== undefined;
  if (!hasNft) log('nft (nftables) not found on PATH: a location with ACL enabled will fail to apply');
  const firewall = createNftFirewall({ ifname: config.ifname, runner, available: hasNft });
  const metrics = new GatewayMetrics();
  const agent = createAgent({ wireguard, firewall, identity: gatewayIdentity(config.ifname), log, metrics });
  metrics.watch(agent.status);
  const health = await listenHealth(config, agent, metrics);
  log(`palisade-gateway ${AGENT_VERSION}: /health on port ${(health.address() as { port: number }).port}, control plane ${config.grpcUrl}`);
  const abort = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort.abort());
  const control = createControlTransport(config.grpcUrl, ca);
  const statsIntervalMs = config.statsIntervalSeconds * 1000;
  await runSession({ agent, transport: control.transport, token: config.token, statsIntervalMs, signal: abort.signal, log });
  if (config.cleanupFirewall) {
    await firewall.remove().then(
      () => log(`removed the firewall table ${firewall.table} (--cleanup-firewall)`),
      (e: unknown) => log(`could not remove the firewall table ${firewall.table}: ${(e as Error).message}`),
    );
  }
  log(`stopping; ${config.ifname} keeps its last applied state`);
  control.close();
  await new Promise((resolve) => health.close(resolve));
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const env = readEnvironment();
    const parsed = parseCommandLine(env, argv);
    if (parsed.kind === 'help') process.stdout.write(USAGE);
    else if (parsed.kind === 'version') process.stdout.write(`${AGENT_VERSION}\n`);
    else await run(parsed.config, env.PATH);
    return 0;
  } catch (e) {
    process.stderr.write(`palisade-gateway: ${e instanceof ConfigError ? e.message : ((e as Error).stack ?? String(e))}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
