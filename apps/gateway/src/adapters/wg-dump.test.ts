import { describe, expect, it } from 'vitest';
import { parseDump, parseIpAddrJson } from './wg-dump.js';

const K1 = 'p8mcvz8sLgp7R6QHuT22LFse7Hlrm4S84ufCLqfRu1o=';
const K2 = 'QqDz8r94qlQvuwduzvZxAvVBK8HHRQk8eBMpTpgpdXA=';
const PSK = 'ncvZ/7WpABC24WEgcPdC0+brvDpPDHaw7+YujOUVNKE=';
const PRIV = 'WOjzBZDJnnRhXa6f8CZWQIDSg3ZsKhkjcg0aosJwCVs=';

describe('parseDump', () => {
  it('reads the interface line and peer lines of `wg show <if> dump`', () => {
    const text = [
      `${PRIV}\tnt9UYhAvfRwphYhzTJRe7uDJEVSshpfAb7+b51CKSF4=\t51820\toff`,
      `${K2}\t(none)\t(none)\t10.9.0.0/24,10.8.0.3/32\t0\t0\t0\toff`,
      `${K1}\t${PSK}\t192.0.2.7:41000\t10.8.0.2/32\t1763762000\t1234\t5678\t25`,
      '',
    ].join('\n');
    const { config, peers, counters } = parseDump(text);
    expect(config).toEqual({ privateKey: PRIV, listenPort: 51820 });
    expect(peers).toEqual([
      { publicKey: K2, presharedKey: null, allowedIps: ['10.8.0.3/32', '10.9.0.0/24'], persistentKeepalive: 0 },
      { publicKey: K1, presharedKey: PSK, allowedIps: ['10.8.0.2/32'], persistentKeepalive: 25 },
    ]);
    expect(counters.get(K1)).toEqual({ endpoint: '192.0.2.7:41000', rxBytes: 1234n, txBytes: 5678n, latestHandshake: 1763762000 });
    expect(counters.get(K2)).toEqual({ endpoint: null, rxBytes: 0n, txBytes: 0n, latestHandshake: 0 });
  });

  it('reads an interface without a key or peers', () => {
    expect(parseDump('(none)\t(none)\t53654\toff\n')).toMatchObject({ config: { privateKey: null, listenPort: 53654 }, peers: [] });
  });
});

describe('parseIpAddrJson', () => {
  it('keeps global addresses with their prefix and the MTU, not link-local ones', () => {
    const json = JSON.stringify([
      {
        mtu: 1420,
        addr_info: [
          { family: 'inet', local: '10.8.0.1', prefixlen: 24, scope: 'global' },
          { family: 'inet6', local: 'fe80::1', prefixlen: 64, scope: 'link' },
          { family: 'inet6', local: 'fd00:8::1', prefixlen: 64, scope: 'global' },
        ],
      },
    ]);
    expect(parseIpAddrJson(json)).toEqual({ addresses: ['10.8.0.1/24', 'fd00:8::1/64'], mtu: 1420 });
  });

  it('says when the link is administratively down (no UP flag), and only then', () => {
    const link = (flags: string[]) => JSON.stringify([{ mtu: 1420, flags, addr_info: [] }]);
    expect(parseIpAddrJson(link(['POINTOPOINT', 'NOARP']))).toEqual({ addresses: [], mtu: 1420, down: true });
    expect(parseIpAddrJson(link(['POINTOPOINT', 'NOARP', 'UP', 'LOWER_UP']))).toEqual({ addresses: [], mtu: 1420 });
  });
});
