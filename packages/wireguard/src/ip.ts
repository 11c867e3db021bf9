/**
 * IPv4 and IPv6 address and CIDR math on bigints. Pure, shared by the API (allocation,
 * validation), the console (forms) and the gateway.
 */
export type IpVersion = 4 | 6;

export interface IpAddress {
  version: IpVersion;
  value: bigint;
}

export interface Cidr {
  /** The address as written (may be a host inside the network, e.g. 10.0.0.1/24). */
  address: IpAddress;
  prefix: number;
}

const BITS: Record<IpVersion, number> = { 4: 32, 6: 128 };
export const bitsOf = (version: IpVersion): number => BITS[version];

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? '';
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
        out.push(Number.parseInt(piece, 16));
      }
    }
    return out;
  };
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

export function parseIp(text: string): IpAddress | undefined {
  const t = text.trim();
  if (t.includes(':')) {
    const value = parseIpv6(t);
    return value === undefined ? undefined : { version: 6, value };
  }
  const value = parseIpv4(t);
  return value === undefined ? undefined : { version: 4, value };
}

export const isIp = (text: string): boolean => parseIp(text) !== undefined;

export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) {
    return [24n, 16n, 8n, 0n].map((s) => String((ip.value >> s) & 0xffn)).join('.');
  }
  const groups = Array.from({ length: 8 }, (_, i) => Number((ip.value >> BigInt((7 - i) * 16)) & 0xffffn));
  // RFC 5952: compress the longest run (length >= 2) of zero groups, the first on ties.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** `10.0.0.1/24`, `fd00::1/64`; without a prefix only when `allowBare` (then a host route). */
export function parseCidr(text: string, allowBare = false): Cidr | undefined {
  const [addr, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || addr === undefined) return undefined;
  const address = parseIp(addr);
  if (!address) return undefined;
  if (prefixText === undefined) return allowBare ? { address, prefix: bitsOf(address.version) } : undefined;
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > bitsOf(address.version)) return undefined;
  return { address, prefix };
}

export const isCidr = (text: string): boolean => parseCidr(text) !== undefined;

const maskOf = (version: IpVersion, prefix: number): bigint => {
  const bits = BigInt(bitsOf(version));
  const host = bits - BigInt(prefix);
  return ((1n << bits) - 1n) ^ ((1n << host) - 1n);
};

export function networkAddress(cidr: Cidr): IpAddress {
  return { version: cidr.address.version, value: cidr.address.value & maskOf(cidr.address.version, cidr.prefix) };
}

/** The last address of the range (IPv4 broadcast). */
export function lastAddress(cidr: Cidr): IpAddress {
  const host = (1n << BigInt(bitsOf(cidr.address.version) - cidr.prefix)) - 1n;
  return { version: cidr.address.version, value: networkAddress(cidr).value | host };
}

export function sizeOf(cidr: Cidr): bigint {
  return 1n << BigInt(bitsOf(cidr.address.version) - cidr.prefix);
}

export function contains(cidr: Cidr, ip: IpAddress): boolean {
  return ip.version === cidr.address.version && (ip.value & maskOf(ip.version, cidr.prefix)) === networkAddress(cidr).value;
}

export function overlaps(a: Cidr, b: Cidr): boolean {
  if (a.address.version !== b.address.version) return false;
  const prefix = Math.min(a.prefix, b.prefix);
  const mask = maskOf(a.address.version, prefix);
  return (a.address.value & mask) === (b.address.value & mask);
}

export const formatCidr = (cidr: Cidr): string => `${formatIp(cidr.address)}/${cidr.prefix}`;

/** Canonical network form: `10.0.0.7/24` → `10.0.0.0/24`. */
export const canonicalNetwork = (cidr: Cidr): string => `${formatIp(networkAddress(cidr))}/${cidr.prefix}`;

/**
 * Addresses a device may be given in this network: not the network address, not the IPv4
 * broadcast (for prefixes < 31), not the location's own address.
 */
export function isAssignable(cidr: Cidr, ip: IpAddress): boolean {
  if (!contains(cidr, ip) || ip.value === cidr.address.value) return false;
  const bits = bitsOf(ip.version);
  if (cidr.prefix >= bits - 1) return false;
  if (ip.value === networkAddress(cidr).value) return false;
  if (ip.version === 4 && ip.value === lastAddress(cidr).value) return false;
  return true;
}

/** Hostname per RFC 1123 (labels of letters, digits and hyphens; not all-numeric TLD). */
export function isHostname(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false;
  const labels = text.replace(/\.$/, '').split('.');
  if (labels.some((l) => !/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l))) return false;
  return !/^[0-9]+$/.test(labels[labels.length - 1] ?? '');
}
