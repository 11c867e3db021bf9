import type { FirewallState } from '#src/firewall/model.js';

/**
 * The agent's view of the interface's nftables table (adapters/nft-firewall.ts; unit tests use a
 * recording fake). Each `apply` is at most one atomic `nft -f` transaction.
 */
export interface FirewallPort {
  /** `inet palisade_<ifname>`. */
  readonly table: string;
  /**
   * Brings the table to `desired`, changing only what differs from the last applied state.
   * `verify` (snapshots): first check that the table still exists (or still does not), so a
   * table deleted behind the agent's back is rebuilt. Resolves true when nft changed something.
   * On failure the applied state counts as unknown: the next apply rebuilds the whole table.
   */
  apply(desired: FirewallState, options?: { verify?: boolean }): Promise<boolean>;
  /** Deletes the table if present (shutdown with `--cleanup-firewall`). */
  remove(): Promise<void>;
}
