import type { Network } from '@palisade/contracts';
import { canonicalNetwork, contains, parseCidr, parseIp, renderClientConfig } from '@palisade/wireguard';
import type { LocationRecord, LocationRow } from './networks.repo.js';

export const toNetwork = (l: LocationRecord): Network => ({
  id: l.id,
  name: l.name,
  address: l.addresses,
  endpoint: l.endpoint,
  port: l.port,
  dns: l.dns,
  allowed_ips: l.allowedIps,
  allowed_groups: l.allowedGroups,
  mfa_enabled: l.mfaEnabled,
  keepalive_interval: l.keepaliveInterval,
  peer_disconnect_threshold: l.peerDisconnectThreshold,
  acl_enabled: l.aclEnabled,
  acl_default_allow: l.aclDefaultAllow,
  pubkey: l.pubkey,
  created_at: l.createdAt.toISOString(),
  ...(l.pendingPeers > 0 ? { pending_peers: l.pendingPeers } : {}),
});

const isDefaultRoute = (entry: string) => parseCidr(entry, true)?.prefix === 0;

/**
 * What a client routes through the location: its allowed IPs (domains cannot be WireGuard
 * AllowedIPs, so only addresses count), or its own networks when none are set. With
 * `disableAllTraffic`, default routes are never offered.
 */
export function clientAllowedIps(location: Pick<LocationRow, 'allowedIps' | 'addresses'>, disableAllTraffic: boolean): string[] {
  const listed = location.allowedIps.filter((entry) => parseCidr(entry, true) !== undefined);
  const base =
    listed.length > 0
      ? listed
      : location.addresses
          .map((a) => parseCidr(a))
          .filter((c) => c !== undefined)
          .map(canonicalNetwork);
  return disableAllTraffic ? base.filter((entry) => !isDefaultRoute(entry)) : base;
}

/** The device's addresses written with the prefix of the location network each falls in. */
export function interfaceAddresses(location: Pick<LocationRow, 'addresses'>, ips: string[]): string[] {
  const out: string[] = [];
  for (const address of location.addresses) {
    const cidr = parseCidr(address);
    if (!cidr) continue;
    for (const text of ips) {
      const ip = parseIp(text);
      if (ip && contains(cidr, ip)) out.push(`${text}/${cidr.prefix}`);
    }
  }
  return out;
}

export function renderDeviceConfig(location: LocationRow, ips: string[], options: { disableAllTraffic: boolean }): string {
  return renderClientConfig({
    addresses: interfaceAddresses(location, ips),
    dns: location.dns,
    peer: {
      publicKey: location.pubkey,
      allowedIps: clientAllowedIps(location, options.disableAllTraffic),
      endpointHost: location.endpoint,
      endpointPort: location.port,
      persistentKeepalive: location.keepaliveInterval,
    },
  });
}
