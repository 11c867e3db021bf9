import { type FirewallState, sameFirewall } from '#src/firewall/model.js';
import { type Layout, removeTableText, renderChanges, renderTable, tableName } from '#src/firewall/render.js';
import { CommandError, type CommandRunner } from '#src/ports/command-runner.js';
import type { FirewallPort } from '#src/ports/firewall.js';

/**
 * FirewallPort over `nft`: every apply is one `nft -f -` run (one atomic transaction). It
 * remembers what it applied (and how the table is laid out, firewall/render.ts) and diffs against
 * that, so an unchanged snapshot runs nothing but the existence check. It only ever names its
 * own table.
 *
 * Without nft on the host (`available` false) an unmanaged firewall is fine (nothing to do) and a
 * managed one fails to apply, which the agent reports as a failed apply.
 */
export interface NftFirewallOptions {
  ifname: string;
  runner: CommandRunner;
  available?: boolean;
}

export interface NftFirewall extends FirewallPort {
  /** How the applied table is laid out (null when unknown): for the benchmark's own timing. */
  layout(): Layout | null;
}

export function createNftFirewall({ ifname, runner, available = true }: NftFirewallOptions): NftFirewall {
  const table = `inet ${tableName(ifname)}`;
  /** What the table holds, or null when unknown (start-up, after a failure). */
  let applied: FirewallState | null = null;
  let layout: Layout | null = null;

  const nft = async (text: string): Promise<void> => {
    await runner.run(['nft', '-f', '-'], { stdin: text });
  };

  /**
   * `nft list tables` would fetch the whole ruleset (every set element) first; a checked-only
   * `create table` (`-c`: nothing is committed) fails with EEXIST when the table exists, in a few ms.
   */
  async function tableExists(): Promise<boolean> {
    try {
      await runner.run(['nft', '--check', 'create', 'table', ...table.split(' ')]);
      return false;
    } catch (e) {
      if (e instanceof CommandError && /File exists/.test(e.stderr)) return true;
      throw e;
    }
  }

  async function applyOnce(desired: FirewallState, verify: boolean): Promise<boolean> {
    if (!available) {
      if (desired.managed) throw new Error('nft (nftables) is not installed: cannot enforce the location ACL');
      applied = desired;
      return false;
    }
    if (verify && applied !== null && (await tableExists()) !== applied.managed) {
      applied = null;
      layout = null;
    }
    if (applied !== null && sameFirewall(applied, desired)) {
      applied = desired;
      return false;
    }
    if (!desired.managed) {
      await nft(removeTableText(ifname));
      layout = null;
    } else if (applied === null || !applied.managed || layout === null) {
      const rendered = renderTable(ifname, desired);
      await nft(rendered.text);
      layout = rendered.layout;
    } else {
      const rendered = renderChanges(ifname, applied, desired, layout);
      if (rendered.text === '') {
        applied = desired;
        return false;
      }
      await nft(rendered.text);
      layout = rendered.layout;
    }
    applied = desired;
    return true;
  }

  return {
    table,
    layout: () => layout,
    async apply(desired, options) {
      try {
        return await applyOnce(desired, options?.verify ?? false);
      } catch (e) {
        applied = null;
        layout = null;
        throw e;
      }
    },
    async remove() {
      if (!available) return;
      await nft(removeTableText(ifname));
      applied = null;
      layout = null;
    },
  };
}
