import type { PortRange } from '@palisade/proto';
import { bitsOf, formatIp, type IpVersion, lastAddress, networkAddress, parseCidr, parseIp } from '@palisade/wireguard';
import { StateError } from '#src/reconcile/normalize.js';

/**
 * Destinations and ports as elements of nft interval sets. nft refuses overlapping intervals in
 * one set (without auto-merge, which would make element removal ambiguous), so overlapping and
 * adjacent ranges are merged first. Pure.
 */
interface Interval {
  lo: bigint;
  hi: bigint;
}

function merge(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : 0));
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.lo <= last.hi + 1n) {
      if (i.hi > last.hi) last.hi = i.hi;
    } else out.push({ ...i });
  }
  return out;
}

/** `10.1.0.0/16`, `10.1.0.5` (= /32) or `10.1.0.5-10.1.0.9` (same family) → [family, interval]. */
function parseDestination(text: string, where: string): [IpVersion, Interval] {
  const dash = text.indexOf('-');
  if (dash >= 0) {
    const lo = parseIp(text.slice(0, dash));
    const hi = parseIp(text.slice(dash + 1));
    if (!lo || !hi || lo.version !== hi.version || lo.value > hi.value) {
      throw new StateError(`${where}: '${text}' is not an address range (low-high, one family, low ≤ high)`);
    }
    return [lo.version, { lo: lo.value, hi: hi.value }];
  }
  const cidr = parseCidr(text, true);
  if (!cidr) throw new StateError(`${where}: '${text}' is not an IP address or CIDR`);
  return [cidr.address.version, { lo: networkAddress(cidr).value, hi: lastAddress(cidr).value }];
}

/** The shortest text of an interval: an address, a CIDR when it is one, else `low-high`. */
function formatInterval(version: IpVersion, { lo, hi }: Interval): string {
  const address = (value: bigint) => formatIp({ version, value });
  if (lo === hi) return address(lo);
  const size = hi - lo + 1n;
  if ((size & (size - 1n)) === 0n && lo % size === 0n) {
    const prefix = bitsOf(version) - (size.toString(2).length - 1);
    return `${address(lo)}/${prefix}`;
  }
  return `${address(lo)}-${address(hi)}`;
}

export function destinationElements(destinations: readonly string[], where: string): { v4: string[]; v6: string[] } {
  const byFamily: Record<IpVersion, Interval[]> = { 4: [], 6: [] };
  for (const d of destinations) {
    const [version, interval] = parseDestination(d.trim(), where);
    byFamily[version].push(interval);
  }
  return {
    v4: merge(byFamily[4]).map((i) => formatInterval(4, i)),
    v6: merge(byFamily[6]).map((i) => formatInterval(6, i)),
  };
}

export function portElements(ports: readonly PortRange[], where: string): string[] {
  const intervals = ports.map(({ first, last }) => {
    if (!Number.isInteger(first) || first < 1 || last > 65_535 || first > last) {
      throw new StateError(`${where}: port range ${first}-${last} is not within 1-65535 with first ≤ last`);
    }
    return { lo: BigInt(first), hi: BigInt(last) };
  });
  return merge(intervals).map(({ lo, hi }) => (lo === hi ? `${lo}` : `${lo}-${hi}`));
}
