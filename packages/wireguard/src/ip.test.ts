import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalNetwork,
  contains,
  formatIp,
  isAssignable,
  isHostname,
  lastAddress,
  networkAddress,
  overlaps,
  parseCidr,
  parseIp,
  sizeOf,
} from './ip.js';

const cidr = (t: string) => {
  const c = parseCidr(t);
  if (!c) throw new Error(`bad cidr ${t}`);
  return c;
};
const ip = (t: string) => {
  const a = parseIp(t);
  if (!a) throw new Error(`bad ip ${t}`);
  return a;
};

describe('ip parsing and formatting', () => {
  it.each([
    '0.0.0.0',
    '10.1.2.3',
    '255.255.255.255',
    '::',
    '::1',
    'fd00::1',
    '2001:db8::8a2e:370:7334',
    '1:2:3:4:5:6:7:8',
    '::ffff:192.0.2.1',
  ])('parses %s', (t) => expect(parseIp(t)).toBeDefined());
  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.1.1.1',
    '1.2.3.-1',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    'g::1',
    '1:2:3:4:5:6:7::8:9',
  ])('rejects %j', (t) => expect(parseIp(t)).toBeUndefined());
  it('formats IPv6 per RFC 5952', () => {
    expect(formatIp(ip('2001:0db8:0000:0000:0000:0000:0002:0001'))).toBe('2001:db8::2:1');
    expect(formatIp(ip('2001:db8:0:1:1:1:1:1'))).toBe('2001:db8:0:1:1:1:1:1');
    expect(formatIp(ip('2001:0:0:1:0:0:0:1'))).toBe('2001:0:0:1::1');
    expect(formatIp(ip('::'))).toBe('::');
  });
  it('round-trips any IPv4 and IPv6 value', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }), (v) => parseIp(formatIp({ version: 4, value: v }))?.value === v));
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), (v) => parseIp(formatIp({ version: 6, value: v }))?.value === v));
  });
});

describe('cidr math', () => {
  it('computes network, last address and size', () => {
    const c = cidr('10.1.2.3/24');
    expect(formatIp(networkAddress(c))).toBe('10.1.2.0');
    expect(formatIp(lastAddress(c))).toBe('10.1.2.255');
    expect(sizeOf(c)).toBe(256n);
    expect(canonicalNetwork(cidr('fd00::7/64'))).toBe('fd00::/64');
  });
  it('rejects bad prefixes', () => {
    for (const t of ['10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/', 'fd00::/129', '10.0.0.0/08', '10.0.0.0/24/1'])
      expect(parseCidr(t)).toBeUndefined();
    expect(parseCidr('10.0.0.1')).toBeUndefined();
    expect(parseCidr('10.0.0.1', true)?.prefix).toBe(32);
  });
  it('knows containment and overlap across versions', () => {
    expect(contains(cidr('10.0.0.0/8'), ip('10.255.0.1'))).toBe(true);
    expect(contains(cidr('10.0.0.0/8'), ip('11.0.0.1'))).toBe(false);
    expect(contains(cidr('10.0.0.0/8'), ip('::1'))).toBe(false);
    expect(overlaps(cidr('10.0.0.0/8'), cidr('10.2.0.0/16'))).toBe(true);
    expect(overlaps(cidr('10.0.0.0/16'), cidr('10.1.0.0/16'))).toBe(false);
  });
  it('never offers the network, broadcast or the location address', () => {
    const c = cidr('10.0.0.1/24');
    expect(isAssignable(c, ip('10.0.0.0'))).toBe(false);
    expect(isAssignable(c, ip('10.0.0.1'))).toBe(false);
    expect(isAssignable(c, ip('10.0.0.255'))).toBe(false);
    expect(isAssignable(c, ip('10.0.0.2'))).toBe(true);
    expect(isAssignable(c, ip('10.0.1.2'))).toBe(false);
    const v6 = cidr('fd00::1/64');
    expect(isAssignable(v6, ip('fd00::'))).toBe(false);
    expect(isAssignable(v6, ip('fd00::ffff:ffff:ffff:ffff'))).toBe(true);
    expect(isAssignable(cidr('10.0.0.1/31'), ip('10.0.0.0'))).toBe(false);
  });
  it('validates hostnames', () => {
    expect(isHostname('vpn.example.com')).toBe(true);
    expect(isHostname('localhost')).toBe(true);
    expect(isHostname('-bad.example')).toBe(false);
    expect(isHostname('1.2.3.4')).toBe(false);
    expect(isHostname('a'.repeat(64))).toBe(false);
  });
});
