import { canonicalNetwork, decodeBase64, encodeBase64, formatCidr, isValidKey, parseCidr } from '@palisade/wireguard';
import type { InterfaceConfig, PeerState } from './state.js';

/**
 * Canonical forms, so that the diff sees equal meaning as equal data. WireGuard stores allowed
 * IPs as networks (host bits cleared: `10.0.0.7/24` reads back as `10.0.0.0/24`), while an
 * interface address keeps its host part (`10.8.0.1/24`). Invalid input is a `StateError`.
 */
export class StateError extends Error {
  override name = 'StateError';
}

/** Canonical networks, sorted and unique; a bare address is a host route. */
export function normalizeAllowedIps(values: readonly string[]): string[] {
  const out = values.map((v) => {
    const cidr = parseCidr(v, true);
    if (!cidr) throw new StateError(`allowed IP '${v}' is not an IP address or CIDR`);
    return canonicalNetwork(cidr);
  });
  return [...new Set(out)].sort();
}

export function normalizeAddresses(values: readonly string[]): string[] {
  const out = values.map((v) => {
    const cidr = parseCidr(v, true);
    if (!cidr) throw new StateError(`interface address '${v}' is not an IP address or CIDR`);
    return formatCidr(cidr);
  });
  return [...new Set(out)].sort();
}

function requireKey(value: string, what: string): string {
  if (!isValidKey(value)) throw new StateError(`${what} is not a valid WireGuard key`);
  return value;
}

/**
 * WireGuard clamps a private key as X25519 does (RFC 7748 §5) and reports the clamped form, so
 * the desired key is clamped too; otherwise every comparison would see a change. The public key
 * is the same either way.
 */
export function clampPrivateKey(key: string): string {
  const bytes = decodeBase64(key);
  bytes[0] = bytes[0]! & 248;
  bytes[31] = (bytes[31]! & 127) | 64;
  return encodeBase64(bytes);
}

/** An all-zero preshared key is WireGuard's "no preshared key". */
export const ZERO_KEY = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export interface PeerInput {
  publicKey: string;
  presharedKey?: string | null;
  allowedIps: readonly string[];
  persistentKeepalive?: number;
}

export function normalizePeer(input: PeerInput): PeerState {
  const psk = input.presharedKey ?? '';
  const keepalive = input.persistentKeepalive ?? 0;
  if (!Number.isInteger(keepalive) || keepalive < 0 || keepalive > 65_535) {
    throw new StateError(`persistent keepalive ${keepalive} of peer ${input.publicKey} is out of range`);
  }
  return {
    publicKey: requireKey(input.publicKey, 'peer public key'),
    presharedKey: psk === '' || psk === ZERO_KEY ? null : requireKey(psk, `preshared key of peer ${input.publicKey}`),
    allowedIps: normalizeAllowedIps(input.allowedIps),
    persistentKeepalive: keepalive,
  };
}

export interface InterfaceInput {
  privateKey?: string | null;
  listenPort?: number;
  addresses: readonly string[];
  mtu?: number | null;
}

export function normalizeConfig(input: InterfaceInput): InterfaceConfig {
  const port = input.listenPort ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new StateError(`listen port ${port} is out of range`);
  const mtu = input.mtu ?? null;
  if (mtu !== null && (!Number.isInteger(mtu) || mtu < 576 || mtu > 65_535)) throw new StateError(`MTU ${mtu} is out of range`);
  const key = input.privateKey ?? '';
  return {
    privateKey: key === '' ? null : clampPrivateKey(requireKey(key, 'interface private key')),
    listenPort: port,
    addresses: normalizeAddresses(input.addresses),
    mtu,
  };
}

/** Two peers may not route the same network: WireGuard would silently move it to the last one. */
export function assertNoSharedAllowedIps(peers: Iterable<PeerState>): void {
  const owner = new Map<string, string>();
  for (const peer of peers) {
    for (const net of peer.allowedIps) {
      const other = owner.get(net);
      if (other !== undefined) throw new StateError(`allowed IP ${net} is given to peers ${other} and ${peer.publicKey}`);
      owner.set(net, peer.publicKey);
    }
  }
}
