import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TunnelTarget } from './args.js';
import { CliError } from './errors.js';
import type { System } from './system.js';

export const configPath = (target: TunnelTarget) => join(target.configDir, `${target.interfaceName}.conf`);

const needsRoot = (what: string) => new CliError(`${what} needs root: run it with sudo.`, 4);

/** Checks before a token is spent that the config can be written there (a spent token cannot be reused). */
export async function ensureWritable(target: TunnelTarget, force: boolean): Promise<void> {
  const file = configPath(target);
  try {
    await mkdir(target.configDir, { recursive: true, mode: 0o700 });
    const probe = join(target.configDir, `.${target.interfaceName}.palisade-probe`);
    await writeFile(probe, '', { mode: 0o600 });
    await rm(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new CliError(`Cannot write to ${target.configDir}: run as root (sudo) or choose another --config-dir.`, 4);
    }
    throw new CliError(`Cannot write to ${target.configDir}: ${(error as Error).message}`);
  }
  if (!force) {
    const exists = await readFile(file).then(
      () => true,
      () => false,
    );
    if (exists)
      throw new CliError(`${file} exists already. Take that tunnel down and pass --force to replace it, or choose another --interface.`);
  }
}

/** Writes the wg-quick config with mode 0600 (it holds the private key). */
export async function writeConfig(target: TunnelTarget, text: string): Promise<string> {
  const file = configPath(target);
  await writeFile(file, text, { mode: 0o600 });
  await chmod(file, 0o600); // a replaced file keeps its old mode otherwise
  return file;
}

/**
 * Runs `wg-quick up|down` on the config. wg-quick applies `DNS =` through resolvconf; on a machine
 * without it (minimal containers, some servers) it would fail, so the CLI then runs wg-quick on a
 * copy without the DNS lines and says so. Without a WireGuard kernel module wg-quick itself falls
 * back to wireguard-go when that is installed.
 */
export async function wgQuick(system: System, action: 'up' | 'down', target: TunnelTarget, log: (line: string) => void): Promise<void> {
  if (!system.isRoot()) throw needsRoot(`wg-quick ${action}`);
  if (!system.has('wg-quick')) {
    throw new CliError('wg-quick is not installed: install wireguard-tools (Debian/Ubuntu: apt-get install wireguard-tools).', 3);
  }
  const file = configPath(target);
  const text = await readFile(file, 'utf8').catch(() => {
    throw new CliError(
      `No tunnel config at ${file}: enroll first (palisade enroll), or pass the --interface/--config-dir it was enrolled with.`,
    );
  });
  let runFile = file;
  let tempDir: string | undefined;
  if (/^\s*DNS\s*=/m.test(text) && !system.has('resolvconf')) {
    if (action === 'up')
      log('resolvconf is not installed: the tunnel comes up without its DNS servers (install resolvconf to apply them).');
    tempDir = await mkdtemp(join(tmpdir(), 'palisade-'));
    runFile = join(tempDir, `${target.interfaceName}.conf`);
    await writeFile(runFile, text.replace(/^\s*DNS\s*=.*\n?/gm, ''), { mode: 0o600 });
  }
  try {
    const result = await system.run('wg-quick', [action, runFile]);
    if (result.code !== 0) {
      const detail = result.stderr.trim().split('\n').slice(-3).join('\n');
      if (/Operation not permitted|Permission denied/i.test(detail)) throw needsRoot(`wg-quick ${action}`);
      if (action === 'up' && /already exists/i.test(detail)) {
        throw new CliError(`The interface ${target.interfaceName} is up already (palisade down first).`);
      }
      if (action === 'down' && /is not a WireGuard interface|does not exist/i.test(detail)) {
        throw new CliError(`The tunnel ${target.interfaceName} is not up.`);
      }
      throw new CliError(`wg-quick ${action} failed:\n${detail}`);
    }
  } finally {
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  }
}

export interface TunnelStatus {
  up: boolean;
  publicKey?: string;
  peers: { publicKey: string; endpoint: string | null; allowedIps: string[]; latestHandshake: number; rx: number; tx: number }[];
}

/** Parses `wg show <if> dump` (first line: the interface; then one tab-separated line per peer). */
export function parseDump(dump: string): TunnelStatus {
  const [head, ...lines] = dump.trim().split('\n');
  const peers = lines
    .map((line) => line.split('\t'))
    .filter((f) => f.length >= 8)
    .map((f) => ({
      publicKey: f[0] ?? '',
      endpoint: f[2] === '(none)' ? null : (f[2] ?? null),
      allowedIps: f[3] === '(none)' ? [] : (f[3] ?? '').split(','),
      latestHandshake: Number(f[4]),
      rx: Number(f[5]),
      tx: Number(f[6]),
    }));
  return { up: true, publicKey: head?.split('\t')[1] ?? '', peers };
}

export async function tunnelStatus(system: System, target: TunnelTarget): Promise<TunnelStatus> {
  if (!system.has('wg')) throw new CliError('wg is not installed: install wireguard-tools.', 3);
  const result = await system.run('wg', ['show', target.interfaceName, 'dump']);
  if (result.code === 0) return parseDump(result.stdout);
  if (/Operation not permitted|Permission denied/i.test(result.stderr)) throw needsRoot('palisade status');
  return { up: false, peers: [] };
}

/** Human lines for `palisade status`. */
export function describeStatus(target: TunnelTarget, status: TunnelStatus, configExists: boolean, nowSeconds: number): string[] {
  if (!status.up) {
    return [
      `${target.interfaceName}: down`,
      configExists
        ? `config: ${configPath(target)} (palisade enroll done; wg-quick up ${configPath(target)} brings it up)`
        : 'not enrolled on this machine',
    ];
  }
  const lines = [`${target.interfaceName}: up`, `public key: ${status.publicKey}`];
  for (const peer of status.peers) {
    const handshake =
      peer.latestHandshake > 0
        ? `${Math.max(0, nowSeconds - peer.latestHandshake)} s ago`
        : 'none yet (no traffic has reached the gateway)';
    lines.push(
      `peer ${peer.publicKey}`,
      `  endpoint: ${peer.endpoint ?? '(none)'}`,
      `  allowed ips: ${peer.allowedIps.join(', ') || '(none)'}`,
      `  latest handshake: ${handshake}`,
      `  transfer: ${peer.rx} B received, ${peer.tx} B sent`,
    );
  }
  return lines;
}
