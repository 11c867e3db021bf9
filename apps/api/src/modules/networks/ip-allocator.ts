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
 * Device IP allocation. Per location network a high-water mark (`next_ip`): every assignable
 * address below it is taken except the "holes" freed since (recorded by a database trigger).
 * Allocation takes the lowest hole, or else scans forward from the mark through the
 * (location, ip) index for the first gap (skipping addresses an admin chose by hand). Either way
 * it costs the same with 10 or 60,000 devices. Callers hold the location row lock; the
 * (location, ip) primary key makes a double assignment impossible even so.
 */
const SCAN_BATCH = 256;

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

async function scanFree(
  repo: NetworksRepo,
  locationId: number,
  cidr: Cidr,
  range: { first: IpAddress; last: IpAddress },
  start: IpAddress,
  reserved?: ReadonlySet<string>,
): Promise<{ ip: IpAddress; skipped: IpAddress[] } | undefined> {
  let candidate = start.value < range.first.value ? range.first : start;
  const skipped: IpAddress[] = [];
  while (candidate.value <= range.last.value) {
    const taken = await repo.takenFrom(locationId, formatIp(candidate), formatIp(range.last), SCAN_BATCH);
    let index = 0;
    for (;;) {
      if (candidate.value > range.last.value) return undefined;
      if (!isAssignable(cidr, candidate)) {
        candidate = plus(candidate, 1n);
        continue;
      }
      if (reserved?.has(formatIp(candidate))) {
        skipped.push(candidate);
        candidate = plus(candidate, 1n);
        continue;
      }
      const nextText = taken[index];
      const next = nextText === undefined ? undefined : parseIp(nextText);
      if (next && next.value === candidate.value) {
        candidate = plus(candidate, 1n);
        index++;
        continue;
      }
      if (next && next.value < candidate.value) {
        index++;
        continue;
      }
      // Free when below the next taken address, or past a short (final) batch.
      if (next || taken.length < SCAN_BATCH) return { ip: candidate, skipped };
      break; // the batch ran out: fetch the next one from `candidate`
    }
  }
  return undefined;
}

function rangeOf(address: string): { cidr: Cidr; range: { first: IpAddress; last: IpAddress } } {
  const cidr = parseCidr(address);
  const range = cidr && assignableRange(cidr);
  if (!cidr || !range) throw new HttpProblem(409, 'network.full', `No free address in ${address}.`);
  return { cidr, range };
}

/**
 * Takes the first free assignable address of `address`'s network for the caller, who holds the
 * location row lock. `reserved` addresses (an import's peers) are skipped and stay free (holes).
 */
export async function allocateIp(repo: NetworksRepo, locationId: number, address: string, reserved?: ReadonlySet<string>): Promise<string> {
  const { cidr, range } = rangeOf(address);
  const key = networkKey(cidr);
  const mark = parseIp(await repo.lockCursor(locationId, key, formatIp(range.first))) ?? range.first;
  for (const hole of await repo.lowestHoles(locationId, key, 64)) {
    if (reserved?.has(hole)) continue;
    const ip = parseIp(hole);
    await repo.deleteHole(locationId, key, hole);
    if (ip && isAssignable(cidr, ip) && !(await repo.isIpTaken(locationId, hole))) return hole;
  }
  const found = await scanFree(repo, locationId, cidr, range, mark, reserved);
  if (!found) throw new HttpProblem(409, 'network.full', `No free address in ${address}.`);
  await repo.setCursor(locationId, key, formatIp(plus(found.ip, 1n)));
  await repo.insertHoles(locationId, key, found.skipped.map(formatIp));
  return formatIp(found.ip);
}

/** The address `allocateIp` would take now, without taking it (suggestions in the console). */
export async function findFreeIp(repo: NetworksRepo, locationId: number, address: string): Promise<string | undefined> {
  const { cidr, range } = rangeOf(address);
  const key = networkKey(cidr);
  for (const hole of await repo.lowestHoles(locationId, key, 64)) {
    const ip = parseIp(hole);
    if (ip && isAssignable(cidr, ip) && !(await repo.isIpTaken(locationId, hole))) return hole;
  }
  const cursorText = await repo.readCursor(locationId, key);
  const found = await scanFree(repo, locationId, cidr, range, (cursorText && parseIp(cursorText)) || range.first);
  return found ? formatIp(found.ip) : undefined;
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
