import { encodeBase64 } from '@palisade/wireguard';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configArb, stateArb } from '#test/support/state-arbitraries.js';
import type { Action } from './actions.js';
import { applyActions } from './apply.js';
import { diff } from './diff.js';
import { absentInterface, type InterfaceState, type PeerState } from './state.js';

const k = (n: number) => encodeBase64(new Uint8Array(32).fill(n));
const peer = (n: number, over: Partial<PeerState> = {}): PeerState => ({
  publicKey: k(n),
  presharedKey: null,
  allowedIps: [`10.8.0.${n}/32`],
  persistentKeepalive: 0,
  ...over,
});
const state = (peers: PeerState[], config: Partial<InterfaceState['config']> = {}): InterfaceState => ({
  exists: true,
  config: { privateKey: k(99), listenPort: 51820, addresses: ['10.8.0.1/24'], mtu: null, ...config },
  peers: new Map(peers.map((p) => [p.publicKey, p])),
});
const keysTouched = (actions: Action[]) =>
  actions.flatMap((a) => (a.type === 'peer.add' ? [a.peer.publicKey] : 'publicKey' in a ? [a.publicKey] : []));

/** What applying the diff must produce: desired, except where desired says "leave as is" (port 0, MTU null). */
const expected = (actual: InterfaceState, desired: InterfaceState): InterfaceState => ({
  ...desired,
  config: {
    ...desired.config,
    listenPort: desired.config.listenPort === 0 ? actual.config.listenPort : desired.config.listenPort,
    mtu: desired.config.mtu ?? actual.config.mtu,
  },
});

describe('diff (examples)', () => {
  it('brings up a link found down (the agent died between creating it and bringing it up), peers untouched', () => {
    const actual = state([peer(2)], { down: true });
    const desired = state([peer(2)]);
    const actions = diff(actual, desired);
    expect(actions).toEqual([{ type: 'interface.configure', set: { up: true } }]);
    expect(applyActions(actual, actions)).toEqual(desired);
    expect(diff(desired, desired)).toEqual([]);
  });

  it('creates and configures a missing interface, then adds every peer', () => {
    const desired = state([peer(2), peer(3)]);
    const actions = diff(absentInterface(), desired);
    expect(actions.map((a) => a.type)).toEqual(['interface.create', 'interface.configure', 'peer.add', 'peer.add']);
    expect(actions[1]).toEqual({
      type: 'interface.configure',
      set: { privateKey: k(99), listenPort: 51820, addAddresses: ['10.8.0.1/24'] },
    });
  });

  it('issues nothing when actual equals desired', () => {
    const s = state([peer(2), peer(3)]);
    expect(diff(s, structuredClone(s))).toEqual([]);
  });

  it('updates only the changed field of the changed peer', () => {
    const actual = state([peer(2), peer(3), peer(4)]);
    const desired = state([peer(2), peer(3, { persistentKeepalive: 25 }), peer(4)]);
    expect(diff(actual, desired)).toEqual([{ type: 'peer.update', publicKey: k(3), set: { persistentKeepalive: 25 } }]);
  });

  it('removes before it updates and adds, so a moved network is free when it is taken', () => {
    const actual = state([peer(2), peer(3)]);
    const desired = state([peer(3, { allowedIps: ['10.8.0.2/32', '10.8.0.3/32'] }), peer(5, { allowedIps: ['10.8.0.9/32'] })]);
    expect(diff(actual, desired).map((a) => a.type)).toEqual(['peer.remove', 'peer.update', 'peer.add']);
  });

  it('treats a desired listen port 0 and MTU null as "leave as is"', () => {
    expect(diff(state([], { mtu: 1420 }), state([], { listenPort: 0, mtu: null }))).toEqual([]);
  });

  it('rotates a device key as a remove plus an add', () => {
    const actions = diff(state([peer(2)]), state([peer(7, { allowedIps: ['10.8.0.2/32'] })]));
    expect(actions).toEqual([
      { type: 'peer.remove', publicKey: k(2) },
      { type: 'peer.add', peer: peer(7, { allowedIps: ['10.8.0.2/32'] }) },
    ]);
  });

  it('with a scope, compares only the named peers and skips the interface', () => {
    const actual = state([peer(2), peer(3)], { mtu: 1280 });
    const desired = state([peer(2, { persistentKeepalive: 25 }), peer(3, { persistentKeepalive: 25 })]);
    expect(diff(actual, desired, { interface: false, peers: [k(3)] })).toEqual([
      { type: 'peer.update', publicKey: k(3), set: { persistentKeepalive: 25 } },
    ]);
  });
});

describe('diff (properties)', () => {
  it('applying diff(actual, desired) to actual yields desired', () => {
    fc.assert(
      fc.property(stateArb(fc.boolean()), stateArb(), (actual, desired) => {
        expect(applyActions(actual, diff(actual, desired))).toEqual(expected(actual, desired));
      }),
      { numRuns: 500 },
    );
  });

  it('diff(desired, desired) is empty', () => {
    fc.assert(fc.property(stateArb(), (s) => diff(s, s).length === 0));
  });

  it('peers equal in actual and desired get no action', () => {
    fc.assert(
      fc.property(stateArb(fc.boolean()), stateArb(), (actual, desired) => {
        const touched = new Set(keysTouched(diff(actual, desired)));
        for (const [key, want] of desired.peers) {
          const have = actual.peers.get(key);
          if (have && JSON.stringify(have) === JSON.stringify(want)) expect(touched.has(key)).toBe(false);
        }
      }),
    );
  });

  it('an update carries exactly the fields that differ', () => {
    fc.assert(
      fc.property(stateArb(), stateArb(), (actual, desired) => {
        for (const a of diff(actual, desired)) {
          if (a.type !== 'peer.update') continue;
          const have = actual.peers.get(a.publicKey)!;
          const want = desired.peers.get(a.publicKey)!;
          for (const field of ['presharedKey', 'allowedIps', 'persistentKeepalive'] as const) {
            expect(field in a.set).toBe(JSON.stringify(have[field]) !== JSON.stringify(want[field]));
          }
        }
      }),
    );
  });

  it('a scope covering everything gives the full diff', () => {
    fc.assert(
      fc.property(stateArb(), stateArb(), (actual, desired) => {
        const everyKey = new Set([...actual.peers.keys(), ...desired.peers.keys()]);
        const sortActions = (xs: Action[]) => xs.map((x) => JSON.stringify(x)).sort();
        expect(sortActions(diff(actual, desired, { interface: true, peers: everyKey }))).toEqual(sortActions(diff(actual, desired)));
      }),
    );
  });

  it('a scoped diff reaches desired when the states agree outside the scope', () => {
    fc.assert(
      fc.property(stateArb(), configArb, fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 4 }), (base, config, changed) => {
        // desired = base with a new config and the peers in `changed` removed or altered.
        const peers = new Map(base.peers);
        for (const n of changed) {
          if (peers.has(k(n))) peers.delete(k(n));
          else peers.set(k(n), peer(n, { allowedIps: [`10.9.0.${n}/32`] }));
        }
        const desired: InterfaceState = { exists: true, config, peers };
        const actions = diff(base, desired, { interface: true, peers: changed.map(k) });
        expect(applyActions(base, actions)).toEqual(expected(base, desired));
      }),
    );
  });
});
