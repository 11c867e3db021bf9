import { lookup } from 'node:dns/promises';
import { assertAddressAllowed, EgressBlockedError, type EgressPolicy, parseAddress } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface Destination {
  url: URL;
  /** The URL host without IPv6 brackets: what TLS verifies the certificate against. */
  hostname: string;
  isIpLiteral: boolean;
  /** Every address the host resolved to, all of them checked against the policy. */
  addresses: ResolvedAddress[];
}

const DNS_TIMEOUT_MS = 5_000;

export function parseEgressUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new EgressBlockedError('(invalid URL)', 'unresolvable', 'the URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressBlockedError(url.protocol, 'unresolvable', 'only http and https URLs can be reached');
  }
  return url;
}

/**
 * Resolves the URL's host once (all A and AAAA records) and checks every address. The caller
 * connects only to these addresses, so a second, different DNS answer (rebinding) is never used.
 * IP literals come already normalised by the URL parser (`http://0x7f.1/` is 127.0.0.1).
 */
export async function resolveDestination(text: string, policy: EgressPolicy, timeoutMs = DNS_TIMEOUT_MS): Promise<Destination> {
  const url = parseEgressUrl(text);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = parseAddress(hostname);
  const addresses = literal ? [{ address: hostname, family: literal.version }] : await lookupAll(hostname, timeoutMs);
  if (addresses.length === 0) throw new EgressBlockedError(hostname, 'unresolvable');
  for (const a of addresses) assertAddressAllowed(a.address, policy);
  return { url, hostname, isIpLiteral: literal !== undefined, addresses };
}

async function lookupAll(hostname: string, timeoutMs: number): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EgressBlockedError(hostname, 'unresolvable')), timeoutMs);
  });
  try {
    const found = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch (err) {
    if (err instanceof EgressBlockedError) throw err;
    throw new EgressBlockedError(hostname, 'unresolvable');
  } finally {
    clearTimeout(timer);
  }
}

/** Save-time check: refuses when the host does not resolve or ANY address is blocked and not allowed. */
export async function checkEgressUrl(url: string, policy: EgressPolicy): Promise<void> {
  await resolveDestination(url, policy);
}
