import { describe, expect, it } from 'vitest';
import type { ChangeRow, LocationState } from './control.repo.js';
import { acceptAck, buildDeltas, planStart, toInterface } from './protocol.js';

const state: LocationState = { locationId: 1, revision: 10n, epoch: 'e1', logFloor: 4n };

describe('planStart', () => {
  it('sends nothing to a gateway at the current revision of the current epoch', () => {
    expect(planStart({ epoch: 'e1', applied: 10n }, state)).toEqual({ type: 'current' });
  });
  it('resumes a gateway behind within the retained log', () => {
    expect(planStart({ epoch: 'e1', applied: 7n }, state)).toEqual({ type: 'resume', after: 7n });
    expect(planStart({ epoch: 'e1', applied: 4n }, state)).toEqual({ type: 'resume', after: 4n });
  });
  it('snapshots a gateway behind the pruned window, from another epoch, with nothing applied, or from the future', () => {
    expect(planStart({ epoch: 'e1', applied: 3n }, state)).toEqual({ type: 'snapshot' });
    expect(planStart({ epoch: 'e0', applied: 10n }, state)).toEqual({ type: 'snapshot' });
    expect(planStart({ epoch: '', applied: 0n }, state)).toEqual({ type: 'snapshot' });
    expect(planStart({ epoch: 'e1', applied: 0n }, state)).toEqual({ type: 'snapshot' });
    expect(planStart({ epoch: 'e1', applied: 11n }, state)).toEqual({ type: 'snapshot' });
  });
});

describe('acceptAck', () => {
  const stream = { epoch: 'e1', sent: 8n, acked: 5n };
  it('moves forward to a sent revision of the same epoch', () => {
    expect(acceptAck({ epoch: 'e1', revision: 7n }, stream)).toBe(7n);
    expect(acceptAck({ epoch: 'e1', revision: 8n }, stream)).toBe(8n);
  });
  it('ignores duplicates, older acks, acks of unsent revisions and of another epoch', () => {
    expect(acceptAck({ epoch: 'e1', revision: 5n }, stream)).toBeUndefined();
    expect(acceptAck({ epoch: 'e1', revision: 3n }, stream)).toBeUndefined();
    expect(acceptAck({ epoch: 'e1', revision: 9n }, stream)).toBeUndefined();
    expect(acceptAck({ epoch: 'e0', revision: 7n }, stream)).toBeUndefined();
  });
});

describe('buildDeltas', () => {
  const peer = (k: string) => ({ publicKey: k, allowedIps: ['10.0.0.2/32'], presharedKey: '', presharedKeyEnc: null });
  const row = (revision: bigint, kind: ChangeRow['kind'], key = ''): ChangeRow => ({ revision, kind, key });

  it('upserts named peers that exist and removes the others, one delta per revision, in order', () => {
    const deltas = buildDeltas(
      [5n, 6n],
      [row(5n, 'peer', 'A'), row(6n, 'peer', 'OLD'), row(6n, 'peer', 'NEW')],
      new Map([
        ['A', peer('A')],
        ['NEW', peer('NEW')],
      ]),
      undefined,
      25,
    );
    expect(deltas?.map((d) => d.revision)).toEqual([5n, 6n]);
    expect(deltas?.[0]?.ops.map((o) => o.op.case)).toEqual(['peerUpsert']);
    expect(deltas?.[0]?.ops[0]?.op.value).toMatchObject({ peer: { publicKey: 'A', persistentKeepalive: 25 } });
    expect(deltas?.[1]?.ops.map((o) => o.op.case)).toEqual(['peerRemove', 'peerUpsert']);
  });

  it('costs one op per changed peer, whatever the size of the location', () => {
    const many = new Map(Array.from({ length: 10_000 }, (_, i) => [`K${i}`, peer(`K${i}`)] as const));
    const deltas = buildDeltas([2n], [row(2n, 'peer', 'K7')], many, undefined, 0);
    expect(deltas?.[0]?.ops).toHaveLength(1);
  });

  it('puts the interface first, and asks for a snapshot for a full change or a missing revision (gap in the log)', () => {
    const iface = toInterface({ port: 1, addresses: ['10.0.0.1/24'], privateKeyEnc: '', keepalive: 0 }, 'key');
    const d = buildDeltas([3n], [row(3n, 'peer', 'X'), row(3n, 'interface')], new Map(), iface, 0);
    expect(d?.[0]?.ops.map((o) => o.op.case)).toEqual(['interfaceChange', 'peerRemove']);
    expect(buildDeltas([3n], [row(3n, 'full')], new Map(), iface, 0)).toBeNull();
    expect(buildDeltas([3n, 4n], [row(4n, 'peer', 'X')], new Map(), iface, 0)).toBeNull();
  });
});
