import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Helpers for system tests and benches that need real WireGuard: root, wireguard-go, wg and ip.
 * Everything they create is named with a per-process suffix and removed by name or PID; they
 * never touch namespaces, interfaces or processes they did not create.
 */
export const isRoot = (): boolean => process.getuid?.() === 0;

/** Installs the tools when missing (Debian, root); false when that is impossible. */
export function ensureWireGuardTools(): boolean {
  const missing = ['/usr/bin/wg', '/usr/bin/wireguard-go', '/usr/sbin/ip'].some(
    (p) => !existsSync(p) && !existsSync(p.replace('/usr', '')),
  );
  if (!missing) return true;
  if (!isRoot()) return false;
  execFileSync('apt-get', ['update', '-qq']);
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'wireguard-tools', 'wireguard-go', 'iproute2'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return true;
}

export const uniqueSuffix = (): string => `${process.pid % 10_000}${Math.floor(Math.random() * 100)}`;

export function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8' });
}

export function inNs(ns: string, argv: string[], stdin?: string): string {
  return execFileSync('ip', ['netns', 'exec', ns, ...argv], { encoding: 'utf8', input: stdin ?? '' });
}

/** SIGTERM, then SIGKILL after 10 s; ignores a process that is already gone. */
export async function stopPid(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGTERM');
  // wireguard-go with 10,000 peers on a loaded machine can take seconds to wind down.
  for (let i = 0; i < 500 && alive(); i++) await sleep(20);
  if (alive()) process.kill(pid, 'SIGKILL');
}

export function deleteNs(ns: string): void {
  try {
    ip('netns', 'del', ns);
  } catch {
    // already gone
  }
}

/**
 * wireguard-go removes its control socket on a clean exit only; after a SIGKILL the stale
 * /var/run/wireguard/<if>.sock would remain. Only for interfaces this process created.
 */
export function removeWireGuardSocket(ifname: string): void {
  rmSync(`/var/run/wireguard/${ifname}.sock`, { force: true });
}
