import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Effect, initialTrackerState, step, type TrackerEvent, type TrackerState } from './revision-tracker.js';

/** Feeds events in order and collects every effect; an apply is followed by `applied`. */
function drive(events: TrackerEvent[], state = initialTrackerState()): { state: TrackerState; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const event of events) {
    let result = step(state, event);
    effects.push(...result.effects);
    if (result.effects.some((e) => e.type === 'apply-snapshot' || e.type === 'apply-delta')) {
      result = step(result.state, { type: 'applied' });
      effects.push(...result.effects);
    }
    state = result.state;
  }
  return { state, effects };
}

const acks = (effects: Effect[]) => effects.flatMap((e) => (e.type === 'ack' ? [e.revision] : []));
const applies = (effects: Effect[]) => effects.filter((e) => e.type === 'apply-delta' || e.type === 'apply-snapshot');
const requests = (effects: Effect[]) => effects.filter((e) => e.type === 'request-snapshot');
const connected: TrackerEvent = { type: 'connected' };
const snapshot = (revision: bigint, epoch = 'e1'): TrackerEvent => ({ type: 'snapshot', epoch, revision });
const delta = (revision: bigint): TrackerEvent => ({ type: 'delta', revision });

describe('revision tracker', () => {
  it('says hello with nothing applied, applies the snapshot, then acks it', () => {
    let s = step(initialTrackerState(), connected);
    expect(s.effects).toEqual([{ type: 'send-hello', epoch: '', appliedRevision: 0n }]);
    s = step(s.state, snapshot(5n));
    expect(s.effects).toEqual([{ type: 'apply-snapshot', revision: 5n }]); // no ack on receipt
    s = step(s.state, { type: 'applied' });
    expect(s.effects).toEqual([
      { type: 'ack', epoch: 'e1', revision: 5n },
      { type: 'report-status', health: 'synced', appliedRevision: 5n, message: '' },
    ]);
    expect(s.state).toMatchObject({ applied: 5n, epoch: 'e1', health: 'synced' });
  });

  it('applies consecutive deltas and acks each after applying it', () => {
    const { state, effects } = drive([connected, snapshot(5n), delta(6n), delta(7n)]);
    expect(acks(effects)).toEqual([5n, 6n, 7n]);
    expect(state.applied).toBe(7n);
  });

  it('ignores a duplicate or old delta and re-acks the applied revision', () => {
    const { state, effects } = drive([connected, snapshot(5n), delta(6n), delta(6n), delta(3n)]);
    expect(applies(effects)).toHaveLength(2); // snapshot 5, delta 6: the duplicates are not applied
    expect(acks(effects)).toEqual([5n, 6n, 6n, 6n]); // cumulative, so repeating 6 is harmless
    expect(state.applied).toBe(6n);
  });

  it('asks once for a snapshot on a gap, ignores deltas until it arrives, then resumes', () => {
    const { state, effects } = drive([connected, snapshot(5n), delta(7n), delta(8n), delta(6n), snapshot(8n), delta(9n)]);
    expect(requests(effects)).toEqual([
      { type: 'request-snapshot', reason: 'gap', appliedRevision: 5n, receivedRevision: 7n, detail: 'delta 7 after 5: missing 6' },
    ]);
    expect(acks(effects)).toEqual([5n, 8n, 9n]);
    expect(effects.filter((e) => e.type === 'report-status').map((e) => (e as { health: string }).health)).toEqual([
      'synced',
      'resyncing',
      'synced',
    ]);
    expect(state).toMatchObject({ applied: 9n, awaitingSnapshot: false });
  });

  it('asks for a snapshot when a delta arrives with nothing applied (unknown revision)', () => {
    const { effects } = drive([connected, delta(4n)]);
    expect(requests(effects)).toMatchObject([{ reason: 'unknown-revision', appliedRevision: 0n, receivedRevision: 4n }]);
    expect(applies(effects)).toHaveLength(0);
  });

  it('keeps the applied revision across a disconnect and says it in the next hello', () => {
    const first = drive([connected, snapshot(5n), delta(6n), { type: 'disconnected' }]);
    expect(first.state).toMatchObject({ applied: 6n, connected: false }); // fail-open: state kept
    const again = step(first.state, connected);
    expect(again.effects).toEqual([{ type: 'send-hello', epoch: 'e1', appliedRevision: 6n }]);
  });

  it('after reconnecting with a stale revision, resumes from deltas and re-acks resent ones', () => {
    const before = drive([connected, snapshot(5n), delta(6n), { type: 'disconnected' }]).state;
    // The server moved on to 8 meanwhile, resends 5 and 6 (already applied) and then 7 and 8.
    const { state, effects } = drive([connected, delta(5n), delta(6n), delta(7n), delta(8n)], before);
    expect(applies(effects).map((e) => e.revision)).toEqual([7n, 8n]);
    expect(acks(effects)).toEqual([6n, 6n, 7n, 8n]);
    expect(state.applied).toBe(8n);
  });

  it('after reconnecting, accepts a snapshot from a new epoch even at a lower revision', () => {
    const before = drive([connected, snapshot(50n), { type: 'disconnected' }]).state;
    const { state, effects } = drive([connected, snapshot(3n, 'e2'), delta(4n)], before);
    expect(effects.filter((e) => e.type === 'ack')).toEqual([
      { type: 'ack', epoch: 'e2', revision: 3n },
      { type: 'ack', epoch: 'e2', revision: 4n },
    ]);
    expect(state).toMatchObject({ epoch: 'e2', applied: 4n });
  });

  it('a stale resumption is caught as a gap when the server skips revisions', () => {
    const before = drive([connected, snapshot(5n), { type: 'disconnected' }]).state;
    const { effects } = drive([connected, delta(9n)], before);
    expect(requests(effects)).toMatchObject([{ reason: 'gap', appliedRevision: 5n, receivedRevision: 9n }]);
  });

  it('on a failed apply: no ack, degraded status, snapshot request, and no resumption from the old revision', () => {
    let s = drive([connected, snapshot(5n)]);
    const r = step(s.state, delta(6n));
    const failed = step(r.state, { type: 'apply-failed', error: 'wg: boom' });
    expect(acks(failed.effects)).toEqual([]);
    expect(failed.effects).toEqual([
      { type: 'report-status', health: 'degraded', appliedRevision: 0n, message: 'wg: boom' },
      { type: 'request-snapshot', reason: 'apply-failed', appliedRevision: 0n, receivedRevision: 6n, detail: 'wg: boom' },
    ]);
    s = drive([delta(7n), { type: 'disconnected' }], failed.state);
    expect(applies(s.effects)).toHaveLength(0);
    expect(step(s.state, connected).effects).toEqual([{ type: 'send-hello', epoch: '', appliedRevision: 0n }]);
  });

  it('refuses events that break the one-apply-at-a-time contract', () => {
    const applying = step(drive([connected]).state, snapshot(1n)).state;
    expect(() => step(applying, delta(2n))).toThrow(/while an apply is in progress/);
    expect(() => step(initialTrackerState(), { type: 'applied' })).toThrow(/no apply in progress/);
    expect(() => step(initialTrackerState(), delta(1n))).toThrow(/while disconnected/);
  });

  it('property: acks never exceed what was applied, never go back within an epoch, and deltas apply only in sequence', () => {
    const event = fc.oneof(
      { weight: 6, arbitrary: fc.bigInt({ min: 1n, max: 12n }).map(delta) },
      { weight: 1, arbitrary: fc.tuple(fc.bigInt({ min: 1n, max: 12n }), fc.constantFrom('e1', 'e2')).map(([r, e]) => snapshot(r, e)) },
      { weight: 1, arbitrary: fc.constantFrom<TrackerEvent>({ type: 'disconnected' }, connected) },
      { weight: 1, arbitrary: fc.constant('fail' as const) },
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let state = step(initialTrackerState(), connected).state;
        let lastAck: { epoch: string; revision: bigint } | undefined;
        let failNext = false;
        for (const e of events) {
          if (e === 'fail') {
            failNext = true;
            continue;
          }
          if (!state.connected && (e.type === 'delta' || e.type === 'snapshot')) continue;
          const before = state.applied;
          let result = step(state, e);
          const apply = result.effects.find((x) => x.type === 'apply-delta' || x.type === 'apply-snapshot');
          if (apply?.type === 'apply-delta') expect(apply.revision).toBe(before + 1n);
          if (apply) {
            expect(result.effects.some((x) => x.type === 'ack')).toBe(false); // never on receipt
            result = step(result.state, failNext ? { type: 'apply-failed', error: 'x' } : { type: 'applied' });
            failNext = false;
          }
          for (const x of result.effects) {
            if (x.type !== 'ack') continue;
            expect(x.revision).toBe(result.state.applied); // ack = what the interface holds
            if (lastAck?.epoch === x.epoch && e.type === 'delta') expect(x.revision >= lastAck.revision).toBe(true);
            lastAck = { epoch: x.epoch, revision: x.revision };
          }
          state = result.state;
        }
      }),
      { numRuns: 500 },
    );
  });
});
