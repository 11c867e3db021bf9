import type { CommandRunner } from '#src/ports/command-runner.js';
import type { LinkPort } from '#src/ports/link.js';
import type { Implementation, Observation, WireGuardPort } from '#src/ports/wireguard.js';
import type { Action } from '#src/reconcile/actions.js';
import { normalizeAddresses } from '#src/reconcile/normalize.js';
import { absentInterface } from '#src/reconcile/state.js';
import { parseDump, parseIpAddrJson } from './wg-dump.js';
import { planCommands } from './wg-commands.js';

/**
 * WireGuardPort over the `wg` and `ip` tools; the same for kernel WireGuard and wireguard-go
 * (both speak the same configuration protocol), only link creation differs (LinkPort).
 * Reading costs two commands (`wg show dump`, `ip -j addr show`) whatever the peer count.
 */
export interface WireGuardToolsOptions {
  ifname: string;
  runner: CommandRunner;
  link: LinkPort;
}

export function createWireGuardTools({ ifname, runner, link }: WireGuardToolsOptions): WireGuardPort {
  let implementation: Implementation | null = null;
  return {
    ifname,
    implementation: () => implementation,
    async read(): Promise<Observation> {
      implementation = await link.detect();
      if (implementation === null) return { state: absentInterface(), counters: new Map() };
      const [dump, addr] = await Promise.all([
        runner.run(['wg', 'show', ifname, 'dump']),
        runner.run(['ip', '-j', 'addr', 'show', 'dev', ifname]),
      ]);
      const wg = parseDump(dump.stdout);
      const ip = parseIpAddrJson(addr.stdout);
      return {
        state: {
          exists: true,
          config: { ...wg.config, addresses: normalizeAddresses(ip.addresses), mtu: ip.mtu, ...(ip.down ? { down: true } : {}) },
          peers: new Map(wg.peers.map((p) => [p.publicKey, p])),
        },
        counters: wg.counters,
      };
    },
    async apply(actions: readonly Action[]): Promise<void> {
      if (actions.some((a) => a.type === 'interface.create')) implementation = await link.create();
      for (const command of planCommands(ifname, actions)) {
        await runner.run(command.argv, command.stdin === undefined ? undefined : { stdin: command.stdin });
      }
    },
  };
}
