import {
  type Cidr,
  canonicalNetwork,
  formatIp,
  type IpAddress,
  isAssignable,
  lastAddress,
  networkAddress,
  parseCidr,
  parseIp,
} from '@palisade/wireguard';
import { HttpProblem } from '#src/lib/problem.js';
import type { NetworksRepo } from './networks.repo.js';

/**
 * Device IP allocation (ADR-004). Per location network a high-water mark (`next_ip`): every
 * assignable address below it is taken except the "holes" freed since (recorded by a database
 * trigger). Allocation takes the lowest hole, or else the first free address from the mark
 * (skipping addresses an admin chose by hand); either way it costs the same with 10 or 60,000
 * devices. The search runs in the database in one round trip (`palisade_allocate_ip`), which
 * takes the location row lock (allocations per location are serialised; callers inside a
 * transaction keep it to the end); the (location, ip) primary key makes a double assignment
 * impossible even so.
 */

const plus = (ip: IpAddress, n: bigint): IpAddress => ({ version: ip.version, value: ip.value + n });

/** First and last assignable addresses of the network (network and IPv4 broadcast excluded). */
export function assignableRange(cidr: Cidr): { first: IpAddress; last: IpAddress } | undefined {
  const first = plus(networkAddress(cidr), 1n);
  const last = cidr.address.version === 4 ? plus(lastAddress(cidr), -1n) : lastAddress(cidr);
  return first.value <= last.value ? { first, last } : undefined;
}

export function networkKey(cidr: Cidr): string {
  return canonicalNetwork(cidr);
}

function rangeOf(address: string): { cidr: Cidr; range: { first: IpAddress; last: IpAddress } } {
  const cidr = parseCidr(address);
  const range = cidr && assignableRange(cidr);
  if (!cidr || !range) throw new HttpProblem(409, 'network.full', `No free address in ${address}.`);
  return { cidr, range };
}

function search(repo: NetworksRepo, locationId: number, address: string, take: boolean, reserved?: ReadonlySet<string>) {
  const { cidr, range } = rangeOf(address);
  return repo.allocate({
    locationId,
    network: networkKey(cidr),
    first: formatIp(range.first),
    last: formatIp(range.last),
    own: formatIp(cidr.address),
    reserved: reserved ? [...reserved] : [],
    take,
  });
}

/**
 * Takes the first free assignable address of `address`'s network (locking the location row for
 * the rest of the caller's transaction). `reserved` addresses (an import's peers) are skipped and
 * stay free (holes).
 */
export async function allocateIp(repo: NetworksRepo, locationId: number, address: string, reserved?: ReadonlySet<string>): Promise<string> {
  const ip = await search(repo, locationId, address, true, reserved);
  if (!ip) throw new HttpProblem(409, 'network.full', `No free address in ${address}.`);
  return ip;
}

/** The address `allocateIp` would take now, without taking it (suggestions in the console). */
export function findFreeIp(repo: NetworksRepo, locationId: number, address: string): Promise<string | undefined> {
  return search(repo, locationId, address, false);
}

export type IpCheck = { ok: true; ip: string } | { ok: false; code: 'network.ip_invalid' | 'network.ip_outside' | 'network.ip_in_use' };

/** Checks an admin-chosen address against one of the location's networks. */
export async function checkIp(
  repo: NetworksRepo,
  locationId: number,
  addresses: string[],
  ipText: string,
): Promise<IpCheck & { network?: string }> {
  const ip = parseIp(ipText);
  if (!ip) return { ok: false, code: 'network.ip_invalid' };
  const network = addresses.find((a) => {
    const c = parseCidr(a);
    return c !== undefined && isAssignable(c, ip);
  });
  if (!network) return { ok: false, code: 'network.ip_outside' };
  const formatted = formatIp(ip);
  if (await repo.isIpTaken(locationId, formatted)) return { ok: false, code: 'network.ip_in_use' };
  return { ok: true, ip: formatted, network };
}
