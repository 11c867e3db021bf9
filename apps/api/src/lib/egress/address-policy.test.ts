import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockedReason, isAllowed } from './address-policy.js';

const NONE = { allowCidrs: [] };

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['fd00::1', 'private'],
    ['fc00::1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    ['::2', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    // IPv4 embedded in IPv6 is judged by the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:a9fe:a9fe]', 'link_local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a00:1::1', 'private'],
    ['not an address', 'unresolvable'],
    ['', 'unresolvable'],
  ])('%s is %s', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('%s is a public address', (ip) => {
    expect(blockedReason(ip)).toBeUndefined();
  });

  it('judges every IPv4-mapped address exactly like the IPv4 address itself', () => {
    const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
    fc.assert(fc.property(ipv4, (ip) => blockedReason(`::ffff:${ip}`) === blockedReason(ip)));
  });
});

describe('isAllowed', () => {
  it('matches addresses inside the allow-listed CIDRs and nothing else', () => {
    const policy = { allowCidrs: ['127.0.0.0/8', '10.1.0.0/16', 'fd00::/8', '192.168.5.5'] };
    expect(isAllowed('127.0.0.1', policy)).toBe(true);
    expect(isAllowed('10.1.200.3', policy)).toBe(true);
    expect(isAllowed('10.2.0.1', policy)).toBe(false);
    expect(isAllowed('fd00::42', policy)).toBe(true);
    expect(isAllowed('fe80::1', policy)).toBe(false);
    expect(isAllowed('192.168.5.5', policy)).toBe(true);
    expect(isAllowed('192.168.5.6', policy)).toBe(false);
    expect(isAllowed('::1', policy)).toBe(false);
    expect(isAllowed('nonsense', policy)).toBe(false);
  });

  it('applies an IPv4 allow-list to the IPv4-mapped form', () => {
    expect(isAllowed('::ffff:127.0.0.1', { allowCidrs: ['127.0.0.0/8'] })).toBe(true);
    expect(isAllowed('::ffff:127.0.0.1', { allowCidrs: ['::ffff:0:0/96'] })).toBe(true);
    expect(isAllowed('::ffff:10.0.0.1', { allowCidrs: ['127.0.0.0/8'] })).toBe(false);
  });

  it('allows nothing with an empty list and ignores malformed entries', () => {
    expect(isAllowed('127.0.0.1', NONE)).toBe(false);
    expect(isAllowed('127.0.0.1', { allowCidrs: ['127.0.0.0/33', 'x', ''] })).toBe(false);
  });
});
