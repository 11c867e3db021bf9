import type { Observation, PeerCounters } from '#src/ports/wireguard.js';
import type { InterfaceConfig, PeerState } from '#src/reconcile/state.js';
import { normalizeAllowedIps } from '#src/reconcile/normalize.js';

/**
 * Parser of `wg show <if> dump` (wg(8)): tab-separated; the first line is the interface
 * (private-key, public-key, listen-port, fwmark), then one line per peer (public-key,
 * preshared-key, endpoint, allowed-ips, latest-handshake, transfer-rx, transfer-tx,
 * persistent-keepalive). "(none)" and "off" mean unset.
 */
const none = (v: string | undefined) => (v === undefined || v === '(none)' || v === 'off' ? null : v);

function field(fields: string[], index: number, line: number): string {
  const v = fields[index];
  if (v === undefined) throw new Error(`wg dump line ${line}: expected at least ${index + 1} fields`);
  return v;
}

export function parseDump(text: string): {
  config: Pick<InterfaceConfig, 'privateKey' | 'listenPort'>;
  peers: PeerState[];
  counters: Observation['counters'];
} {
  const lines = text.split('\n').filter((l) => l.length > 0);
  const head = (lines[0] ?? '').split('\t');
  const config = { privateKey: none(head[0]), listenPort: Number(head[2] ?? 0) };
  const peers: PeerState[] = [];
  const counters = new Map<string, PeerCounters>();
  for (let i = 1; i < lines.length; i++) {
    const f = (lines[i] ?? '').split('\t');
    const publicKey = field(f, 0, i + 1);
    const allowed = none(field(f, 3, i + 1));
    peers.push({
      publicKey,
      presharedKey: none(f[1]),
      allowedIps: allowed === null ? [] : normalizeAllowedIps(allowed.split(',')),
      persistentKeepalive: Number(none(f[7]) ?? 0),
    });
    counters.set(publicKey, {
      endpoint: none(f[2]),
      latestHandshake: Number(field(f, 4, i + 1)),
      rxBytes: BigInt(field(f, 5, i + 1)),
      txBytes: BigInt(field(f, 6, i + 1)),
    });
  }
  return { config, peers, counters };
}

/** `ip -j addr show dev <if>` → the interface's addresses (with prefix) and MTU. */
export function parseIpAddrJson(json: string): Pick<InterfaceConfig, 'addresses' | 'mtu' | 'down'> {
  const links = JSON.parse(json) as {
    mtu?: number;
    flags?: string[];
    addr_info?: { local?: string; prefixlen?: number; scope?: string }[];
  }[];
  const link = links[0];
  if (!link) return { addresses: [], mtu: null };
  const addresses = (link.addr_info ?? [])
    .filter((a) => a.local !== undefined && a.prefixlen !== undefined && a.scope !== 'link')
    .map((a) => `${a.local}/${a.prefixlen}`);
  // Administratively down (no UP flag): only said when so, as desired states never carry it.
  return { addresses, mtu: link.mtu ?? null, ...(link.flags && !link.flags.includes('UP') ? { down: true } : {}) };
}
