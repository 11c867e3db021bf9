import { describe, expect, it } from 'vitest';
import type { PeerCounters } from '#src/ports/wireguard.js';
import { changedCounters } from './changed-counters.js';

const c = (rx: bigint, handshake = 0, endpoint: string | null = null): PeerCounters => ({
  endpoint,
  rxBytes: rx,
  txBytes: 0n,
  latestHandshake: handshake,
});

describe('changedCounters', () => {
  it('reports every peer against an empty baseline (new stream)', () => {
    expect([
      ...changedCounters(
        new Map(),
        new Map([
          ['a', c(0n)],
          ['b', c(5n)],
        ]),
      ).keys(),
    ]).toEqual(['a', 'b']);
  });

  it('reports only peers whose counters, handshake or endpoint changed', () => {
    const baseline = new Map([
      ['idle', c(10n, 100, '192.0.2.1:1')],
      ['traffic', c(10n, 100)],
      ['handshake', c(10n, 100)],
      ['roamed', c(10n, 100, '192.0.2.1:1')],
    ]);
    const current = new Map([
      ['idle', c(10n, 100, '192.0.2.1:1')],
      ['traffic', c(11n, 100)],
      ['handshake', c(10n, 220)],
      ['roamed', c(10n, 100, '198.51.100.9:7')],
      ['new', c(0n)],
    ]);
    expect([...changedCounters(baseline, current).keys()]).toEqual(['traffic', 'handshake', 'roamed', 'new']);
  });
});
