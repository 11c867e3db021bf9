import type { PeerCounters } from '#src/ports/wireguard.js';

/**
 * Which peers to report: those whose counters, endpoint or handshake differ from what was last
 * reported on this stream. Against an empty baseline (a new stream) every peer is reported, so
 * the control plane gets a full picture after each (re)connect; after that, idle peers cost
 * nothing per interval.
 */
const same = (a: PeerCounters, b: PeerCounters) =>
  a.rxBytes === b.rxBytes && a.txBytes === b.txBytes && a.latestHandshake === b.latestHandshake && a.endpoint === b.endpoint;

export function changedCounters(
  baseline: ReadonlyMap<string, PeerCounters>,
  current: ReadonlyMap<string, PeerCounters>,
): Map<string, PeerCounters> {
  const out = new Map<string, PeerCounters>();
  for (const [key, counters] of current) {
    const before = baseline.get(key);
    if (!before || !same(before, counters)) out.set(key, counters);
  }
  return out;
}
