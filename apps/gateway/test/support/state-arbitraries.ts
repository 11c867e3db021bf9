import { encodeBase64 } from '@palisade/wireguard';
import fc from 'fast-check';
import type { InterfaceConfig, InterfaceState, PeerState } from '#src/reconcile/state.js';

/**
 * fast-check generators of normalised states. Keys and networks come from small pools so that
 * generated actual and desired states share peers and often differ in a single field.
 */
const keyPool = Array.from({ length: 12 }, (_, i) => encodeBase64(new Uint8Array(32).fill(i + 1)));
const netPool = Array.from({ length: 16 }, (_, i) => `10.8.0.${i + 2}/32`);

const key = fc.constantFrom(...keyPool);
const sortedSubset = (pool: string[], max: number) => fc.uniqueArray(fc.constantFrom(...pool), { maxLength: max }).map((a) => a.sort());

export const peerArb = (publicKey: string): fc.Arbitrary<PeerState> =>
  fc.record({
    publicKey: fc.constant(publicKey),
    presharedKey: fc.option(key, { nil: null }),
    allowedIps: sortedSubset(netPool, 3),
    persistentKeepalive: fc.constantFrom(0, 25),
  });

export const configArb: fc.Arbitrary<InterfaceConfig> = fc.record({
  privateKey: fc.option(key, { nil: null }),
  listenPort: fc.constantFrom(0, 51820, 51821),
  addresses: sortedSubset(['10.8.0.1/24', 'fd00:8::1/64', '192.168.9.1/24'], 2),
  mtu: fc.constantFrom(null, 1280, 1420),
});

/**
 * A valid state never gives one network to two peers (WireGuard would silently keep it on the
 * last one; desiredFromSnapshot rejects it), so later peers lose networks already taken. A
 * network can still move from one peer to another between two generated states.
 */
function withoutSharedNetworks(peers: PeerState[]): PeerState[] {
  const taken = new Set<string>();
  return peers.map((p) => {
    const allowedIps = p.allowedIps.filter((n) => !taken.has(n));
    for (const n of allowedIps) taken.add(n);
    return { ...p, allowedIps };
  });
}

export const stateArb = (exists: fc.Arbitrary<boolean> = fc.constant(true)): fc.Arbitrary<InterfaceState> =>
  fc.tuple(exists, configArb, fc.uniqueArray(key, { maxLength: 8 })).chain(([isUp, config, keys]) =>
    fc.tuple(...keys.map(peerArb)).map((peers) => ({
      exists: isUp,
      config: isUp ? config : { privateKey: null, listenPort: 0, addresses: [], mtu: null },
      peers: new Map(isUp ? withoutSharedNetworks(peers).map((p) => [p.publicKey, p] as const) : []),
    })),
  );
