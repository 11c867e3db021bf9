import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '#src/adapters/command-runner.js';
import { createUserspaceWireGuard } from '#src/adapters/wireguard-userspace.js';
import { applyActions } from '#src/reconcile/apply.js';
import { diff } from '#src/reconcile/diff.js';
import { clampPrivateKey } from '#src/reconcile/normalize.js';
import type { InterfaceState } from '#src/reconcile/state.js';
import { deleteNs, ensureWireGuardTools, ip, isRoot, removeWireGuardSocket, stopPid, uniqueSuffix } from './support/netns.js';
import { stateArb } from './support/state-arbitraries.js';

/**
 * The pure model against the real thing: for a random sequence of desired states, executing
 * diff(read(), desired) through the `wg`/`ip` adapter on wireguard-go must leave the interface
 * exactly where `applyActions` (the model the unit tests and the fake rely on) says it is.
 * Catches any gap between what an action means and what the commands do (e.g. `wg addconf`
 * clearing allowed IPs it was not given). Needs root.
 */
const canRun = isRoot() && ensureWireGuardTools();
const suffix = uniqueSuffix();
const ns = `pgw-m-${suffix}`;
const ifname = `pgwm${suffix}`;

/** WireGuard stores clamped private keys; the generators produce arbitrary 32-byte values. */
const clamped = (s: InterfaceState): InterfaceState => ({
  ...s,
  config: { ...s.config, privateKey: s.config.privateKey && clampPrivateKey(s.config.privateKey) },
});

describe.skipIf(!canRun)('reconcile model vs real wireguard-go (system, property-based)', () => {
  const wireguard = createUserspaceWireGuard(createCommandRunner(['ip', 'netns', 'exec', ns]), ifname);

  beforeAll(() => {
    ip('netns', 'add', ns);
  });

  afterAll(async () => {
    await stopPid(wireguard.link.pid);
    removeWireGuardSocket(ifname);
    deleteNs(ns);
  });

  it('executing diff(actual, desired) leaves the interface exactly as applyActions predicts', async () => {
    await fc.assert(
      fc.asyncProperty(stateArb(), async (generated) => {
        const desired = clamped(generated);
        const actual = (await wireguard.read()).state;
        const actions = diff(actual, desired);
        await wireguard.apply(actions);
        const after = (await wireguard.read()).state;
        const predicted = applyActions(actual, actions);
        // The model leaves what desired leaves open: port 0 ("any": WireGuard picks one once the
        // interface has a key) and MTU null (a new interface gets the system default).
        const config = {
          ...predicted.config,
          listenPort: predicted.config.listenPort || after.config.listenPort,
          mtu: predicted.config.mtu ?? after.config.mtu,
        };
        expect(after).toEqual({ ...predicted, config });
        expect(diff(after, desired)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
