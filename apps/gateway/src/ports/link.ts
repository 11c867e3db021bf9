import type { Implementation } from './wireguard.js';

/**
 * Creating the WireGuard network interface: the only step that differs between kernel
 * WireGuard (`ip link add … type wireguard`) and wireguard-go (a userspace process with a TUN).
 * Everything after creation goes through the same `wg`/`ip` commands.
 */
export interface LinkPort {
  /** Which implementation drives the existing interface, or null when there is none. */
  detect(): Promise<Implementation | null>;
  /** Creates the interface and brings it up; returns the implementation used. */
  create(): Promise<Implementation>;
  /** PID of the wireguard-go process this link started, if it started one (tests stop it by PID). */
  readonly pid?: number | undefined;
}
