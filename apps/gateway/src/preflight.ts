import { X509Certificate } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { isMissingKernelSupport } from './adapters/wireguard-kernel.js';
import { NotWireGuardError } from './adapters/wireguard-userspace.js';
import { type Config, ConfigError, OPTIONS } from './config.js';
import type { Observation, WireGuardPort } from './ports/wireguard.js';

/**
 * Start-up checks that turn a host that cannot work into an immediate exit naming the setting or
 * tool to fix, instead of a gateway that connects and then fails every apply: the CA file must be
 * a readable PEM certificate, `wg` and `ip` must be installed, and GATEWAY_USERSPACE=always needs
 * wireguard-go, and when only kernel WireGuard can serve (`never`, or `auto` without
 * wireguard-go) the interface is created at once, which proves the kernel module is there.
 */
const describe = (key: keyof typeof OPTIONS) => `${OPTIONS[key].env} (${OPTIONS[key].flag})`;

/** The CA bundle's bytes; a ConfigError when it cannot be read or holds no certificate. */
export function readCaFile(path: string, read: (p: string) => Buffer = readFileSync): Buffer {
  let pem: Buffer;
  try {
    pem = read(path);
  } catch (e) {
    throw new ConfigError(`${describe('caFile')}: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    new X509Certificate(pem);
  } catch {
    throw new ConfigError(`${describe('caFile')}: ${path} is not a PEM certificate`);
  }
  return pem;
}

/** First executable called `name` on `path` (a PATH value), or undefined. */
export function findExecutable(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The tools the configuration needs; throws a ConfigError naming what is missing. */
export function checkTools(config: Pick<Config, 'userspace'>, path: string | undefined, find = findExecutable): void {
  const missing = ['wg', 'ip'].filter((tool) => find(tool, path) === undefined);
  if (missing.length > 0) {
    throw new ConfigError(`${missing.join(' and ')} not found on PATH: install wireguard-tools and iproute2`);
  }
  if (config.userspace === 'always' && find('wireguard-go', path) === undefined) {
    throw new ConfigError(`${describe('userspace')}: always, but wireguard-go is not installed (not found on PATH)`);
  }
}

/**
 * Reads the interface as found at start-up (kept as it is until the first snapshot). Creates it
 * first when only kernel WireGuard can serve; a kernel without the module is a ConfigError.
 */
export async function checkInterface(
  config: Pick<Config, 'userspace' | 'ifname'>,
  wireguard: WireGuardPort,
  kernel: { hasWireguardGo: boolean; createLink: () => Promise<unknown> },
): Promise<Observation> {
  let existing: Observation;
  try {
    existing = await wireguard.read();
  } catch (e) {
    if (e instanceof NotWireGuardError) throw new ConfigError(`${describe('ifname')}: ${e.message}`);
    throw e;
  }
  const kernelOnly = config.userspace === 'never' || (config.userspace === 'auto' && !kernel.hasWireguardGo);
  if (existing.state.exists || !kernelOnly) return existing;
  try {
    await kernel.createLink();
  } catch (e) {
    if (!isMissingKernelSupport(e)) throw e;
    const why = config.userspace === 'never' ? 'never,' : 'auto, and wireguard-go is not installed,';
    throw new ConfigError(`${describe('userspace')}: ${why} but the kernel has no WireGuard module (${(e as Error).message.trim()})`);
  }
  return wireguard.read();
}
