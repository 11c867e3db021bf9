import { encodeBase64 } from '@palisade/wireguard';
import { describe, expect, it } from 'vitest';
import type { Action } from '#src/reconcile/actions.js';
import { ZERO_KEY } from '#src/reconcile/normalize.js';
import { planCommands } from './wg-commands.js';

const k = (n: number) => encodeBase64(new Uint8Array(32).fill(n));

describe('planCommands', () => {
  it('configures a new interface and adds every peer in one addconf through stdin', () => {
    const actions: Action[] = [
      { type: 'interface.create' },
      { type: 'interface.configure', set: { privateKey: k(9), listenPort: 51820, addAddresses: ['10.8.0.1/24'], mtu: 1380 } },
      { type: 'peer.add', peer: { publicKey: k(1), presharedKey: k(5), allowedIps: ['10.8.0.2/32'], persistentKeepalive: 25 } },
      {
        type: 'peer.add',
        peer: { publicKey: k(2), presharedKey: null, allowedIps: ['10.8.0.3/32', '10.9.0.0/24'], persistentKeepalive: 0 },
      },
    ];
    expect(planCommands('wg0', actions)).toEqual([
      { argv: ['ip', '-batch', '-'], stdin: 'address add 10.8.0.1/24 dev wg0\nlink set dev wg0 mtu 1380\n' },
      {
        argv: ['wg', 'addconf', 'wg0', '/dev/stdin'],
        stdin: [
          '[Interface]',
          `PrivateKey = ${k(9)}`,
          'ListenPort = 51820',
          '[Peer]',
          `PublicKey = ${k(1)}`,
          `PresharedKey = ${k(5)}`,
          'AllowedIPs = 10.8.0.2/32',
          'PersistentKeepalive = 25',
          '[Peer]',
          `PublicKey = ${k(2)}`,
          'AllowedIPs = 10.8.0.3/32, 10.9.0.0/24',
          '',
        ].join('\n'),
      },
    ]);
  });

  it('updates only the changed settings with wg set, keys through stdin, and removes in one call', () => {
    const actions: Action[] = [
      { type: 'peer.remove', publicKey: k(3) },
      { type: 'peer.remove', publicKey: k(4) },
      { type: 'peer.update', publicKey: k(1), set: { persistentKeepalive: 0 } },
      { type: 'peer.update', publicKey: k(2), set: { allowedIps: [], presharedKey: null } },
    ];
    expect(planCommands('wg0', actions)).toEqual([
      { argv: ['wg', 'set', 'wg0', 'peer', k(3), 'remove', 'peer', k(4), 'remove'] },
      { argv: ['wg', 'set', 'wg0', 'peer', k(1), 'persistent-keepalive', 'off', 'peer', k(2), 'allowed-ips', ''] },
      { argv: ['wg', 'set', 'wg0', 'peer', k(2), 'preshared-key', '/dev/stdin'], stdin: `${ZERO_KEY}\n` },
    ]);
  });

  it('never puts a private or preshared key on argv', () => {
    const actions: Action[] = [
      { type: 'interface.configure', set: { privateKey: k(9) } },
      { type: 'peer.update', publicKey: k(1), set: { presharedKey: k(7) } },
      { type: 'peer.add', peer: { publicKey: k(2), presharedKey: k(8), allowedIps: [], persistentKeepalive: 0 } },
    ];
    const argv = planCommands('wg0', actions).flatMap((c) => c.argv);
    for (const secret of [k(9), k(7), k(8)]) expect(argv).not.toContain(secret);
  });

  it('splits large removals into chunks', () => {
    const actions: Action[] = Array.from({ length: 1200 }, (_, i) => ({ type: 'peer.remove', publicKey: `key${i}` }));
    expect(planCommands('wg0', actions).map((c) => (c.argv.length - 3) / 3)).toEqual([500, 500, 200]);
  });

  it('brings a link found down up in the ip batch', () => {
    expect(planCommands('wg0', [{ type: 'interface.configure', set: { up: true } }])).toEqual([
      { argv: ['ip', '-batch', '-'], stdin: 'link set dev wg0 up\n' },
    ]);
  });

  it('issues nothing for no actions', () => {
    expect(planCommands('wg0', [])).toEqual([]);
  });
});
