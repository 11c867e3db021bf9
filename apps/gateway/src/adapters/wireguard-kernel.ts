import type { UserspaceMode } from '#src/config.js';
import { CommandError, type CommandRunner } from '#src/ports/command-runner.js';
import type { LinkPort } from '#src/ports/link.js';
import type { WireGuardPort } from '#src/ports/wireguard.js';
import { createUserspaceLink, detectLink } from './wireguard-userspace.js';
import { createWireGuardTools } from './wireguard-tools.js';

/**
 * Kernel WireGuard (`ip link add … type wireguard`), and the GATEWAY_USERSPACE policy:
 * `never` = kernel only, `always` = wireguard-go only, `auto` = kernel when the module loads,
 * else wireguard-go. An interface that already exists is used as it is, whatever its kind.
 */
const NO_KERNEL_SUPPORT = /unknown device type|not supported|no such device/i;

/** Whether `e` is `ip link add … type wireguard` failing for lack of the kernel module. */
export const isMissingKernelSupport = (e: unknown): boolean => e instanceof CommandError && NO_KERNEL_SUPPORT.test(e.stderr);

export function createKernelLink(runner: CommandRunner, ifname: string): LinkPort {
  return {
    detect: () => detectLink(runner, ifname),
    async create() {
      await runner.run(['ip', 'link', 'add', 'dev', ifname, 'type', 'wireguard']);
      await runner.run(['ip', 'link', 'set', 'dev', ifname, 'up']);
      return 'kernel';
    },
  };
}

export function createAutoLink(runner: CommandRunner, ifname: string): LinkPort {
  const kernel = createKernelLink(runner, ifname);
  const userspace = createUserspaceLink(runner, ifname);
  return {
    get pid() {
      return userspace.pid;
    },
    detect: () => detectLink(runner, ifname),
    async create() {
      try {
        return await kernel.create();
      } catch (e) {
        if (isMissingKernelSupport(e)) return userspace.create();
        throw e;
      }
    },
  };
}

export function createWireGuard(mode: UserspaceMode, runner: CommandRunner, ifname: string): WireGuardPort & { link: LinkPort } {
  const link =
    mode === 'always'
      ? createUserspaceLink(runner, ifname)
      : mode === 'never'
        ? createKernelLink(runner, ifname)
        : createAutoLink(runner, ifname);
  return { ...createWireGuardTools({ ifname, runner, link }), link };
}
