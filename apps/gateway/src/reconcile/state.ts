/**
 * The WireGuard state the agent reconciles, in one shape for "actual" (read from the interface)
 * and "desired" (built from the control plane's snapshot and deltas).
 *
 * Values are normalised (see normalize.ts) so that equal meaning is equal data: allowed IPs are
 * canonical networks, sorted and unique; "none" is `null` (preshared key, private key, MTU) or
 * `0` (keepalive off; listen port "any"). The diff relies on this to touch only real changes.
 */
export interface InterfaceConfig {
  /** Base64 private key; null when the interface has none. */
  privateKey: string | null;
  /** UDP port; in a desired state 0 means "any", so an actual random port is not a change. */
  listenPort: number;
  /** Interface addresses with prefix (`10.8.0.1/24`), canonical text, sorted, unique. */
  addresses: string[];
  /** null: unknown (actual) or "leave as is" (desired; a new interface gets the system default). */
  mtu: number | null;
  /**
   * Actual only: the link exists but is administratively down (e.g. the agent died between
   * creating it and bringing it up). Desired states leave it out: the link is always wanted up.
   */
  down?: boolean;
}

export interface PeerState {
  publicKey: string;
  presharedKey: string | null;
  /** Canonical networks (`10.8.0.2/32`), sorted, unique. */
  allowedIps: string[];
  /** Seconds; 0 = off. */
  persistentKeepalive: number;
}

export interface InterfaceState {
  /** False when the interface does not exist (yet); config and peers are then empty. */
  exists: boolean;
  config: InterfaceConfig;
  /** Keyed by public key. */
  peers: ReadonlyMap<string, PeerState>;
}

export const EMPTY_CONFIG: InterfaceConfig = { privateKey: null, listenPort: 0, addresses: [], mtu: null };

export const absentInterface = (): InterfaceState => ({ exists: false, config: { ...EMPTY_CONFIG, addresses: [] }, peers: new Map() });
