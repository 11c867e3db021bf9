import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandRunner } from '#src/ports/command-runner.js';
import type { LinkPort } from '#src/ports/link.js';
import type { Implementation, WireGuardPort } from '#src/ports/wireguard.js';
import { createWireGuardTools } from './wireguard-tools.js';

/**
 * wireguard-go: a userspace WireGuard behind a TUN device, configured through its control socket
 * (/var/run/wireguard/<if>.sock, not namespaced, so interface names must be unique per machine)
 * with the same `wg` commands as the kernel module. The process is started detached: it keeps
 * the tunnel up if the agent stops, and the restarted agent finds the interface and diffs
 * against it instead of recreating it (peers keep their handshakes).
 */
/** The interface name is taken by a link that is not WireGuard (e.g. a bridge called wg0). */
export class NotWireGuardError extends Error {
  override name = 'NotWireGuardError';
}

/** `ip -d -j link show` → kernel (`wireguard`) or userspace (`tun`), null when absent. */
export async function detectLink(runner: CommandRunner, ifname: string): Promise<Implementation | null> {
  try {
    const { stdout } = await runner.run(['ip', '-d', '-j', 'link', 'show', 'dev', ifname]);
    const kind = (JSON.parse(stdout) as { linkinfo?: { info_kind?: string } }[])[0]?.linkinfo?.info_kind;
    if (kind === 'wireguard') return 'kernel';
    if (kind === 'tun') return 'userspace';
    throw new NotWireGuardError(`interface ${ifname} exists but is not WireGuard (kind ${kind ?? 'unknown'})`);
  } catch (e) {
    if (e instanceof Error && /does not exist/i.test(e.message)) return null;
    throw e;
  }
}

/** Waits until wireguard-go answers on its control socket. */
async function waitForSocket(runner: CommandRunner, ifname: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await runner.run(['wg', 'show', ifname, 'listen-port']);
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`wireguard-go did not open the control socket of ${ifname}: ${(e as Error).message}`);
      await sleep(20);
    }
  }
}

export function createUserspaceLink(runner: CommandRunner, ifname: string, binary = 'wireguard-go'): LinkPort {
  let pid: number | undefined;
  return {
    get pid() {
      return pid;
    },
    detect: () => detectLink(runner, ifname),
    async create() {
      pid = await runner.spawnDetached([binary, '-f', ifname]);
      await waitForSocket(runner, ifname, 5_000);
      await runner.run(['ip', 'link', 'set', 'dev', ifname, 'up']);
      return 'userspace';
    },
  };
}

export function createUserspaceWireGuard(runner: CommandRunner, ifname: string): WireGuardPort & { link: LinkPort } {
  const link = createUserspaceLink(runner, ifname);
  return { ...createWireGuardTools({ ifname, runner, link }), link };
}
