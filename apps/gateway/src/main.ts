import { readFileSync } from 'node:fs';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { createCommandRunner } from './adapters/command-runner.js';
import { createWireGuard } from './adapters/wireguard-kernel.js';
import { type Config, ConfigError, OPTIONS, parseCommandLine, USAGE } from './config.js';
import { createAgent } from './control/agent.js';
import { runSession } from './control/session.js';
import { readEnvironment } from './env.js';
import { startHealthServer } from './health.js';
import { gatewayIdentity } from './identity.js';
import { AGENT_VERSION } from './version.js';

/**
 * palisade-gateway: wires configuration, the WireGuard adapter, the agent, /health and the
 * dial-out session. On SIGINT/SIGTERM it stops talking to the control plane but leaves the
 * interface as it is (fail-open; wireguard-go keeps running detached).
 */
const log = (message: string) => console.log(`${new Date().toISOString()} ${message}`);

function readCa(config: Config): Buffer | undefined {
  if (config.caFile === undefined) return undefined;
  try {
    return readFileSync(config.caFile);
  } catch (e) {
    throw new ConfigError(`${OPTIONS.caFile.env} (${OPTIONS.caFile.flag}): cannot read ${config.caFile}: ${(e as Error).message}`);
  }
}

async function run(config: Config): Promise<void> {
  const ca = readCa(config);
  const wireguard = createWireGuard(config.userspace, createCommandRunner(), config.ifname);
  const existing = await wireguard.read();
  if (existing.state.exists)
    log(`found ${config.ifname} (${wireguard.implementation()}) with ${existing.state.peers.size} peer(s); kept until the first snapshot`);
  const agent = createAgent({ wireguard, identity: gatewayIdentity(config.ifname), log });
  const health = await startHealthServer(config.healthPort, agent.status);
  log(`palisade-gateway ${AGENT_VERSION}: /health on port ${(health.address() as { port: number }).port}, control plane ${config.grpcUrl}`);
  const abort = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort.abort());
  // Our own session manager, so that shutdown closes the HTTP/2 connection. HTTP/2 pings notice
  // a dead connection (e.g. a NAT that dropped it) within ~25 s.
  const sessionManager = new Http2SessionManager(config.grpcUrl, { pingIntervalMs: 15_000, pingTimeoutMs: 10_000 }, ca ? { ca } : {});
  const transport = createGrpcTransport({ baseUrl: config.grpcUrl, sessionManager });
  const statsIntervalMs = config.statsIntervalSeconds * 1000;
  await runSession({ agent, transport, token: config.token, statsIntervalMs, signal: abort.signal, log });
  log(`stopping; ${config.ifname} keeps its last applied state`);
  sessionManager.abort();
  await new Promise((resolve) => health.close(resolve));
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const parsed = parseCommandLine(readEnvironment(), argv);
    if (parsed.kind === 'help') process.stdout.write(USAGE);
    else if (parsed.kind === 'version') process.stdout.write(`${AGENT_VERSION}\n`);
    else await run(parsed.config);
    return 0;
  } catch (e) {
    process.stderr.write(`palisade-gateway: ${e instanceof ConfigError ? e.message : ((e as Error).stack ?? String(e))}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
