/**
 * The gateway side of the revision protocol (gateway.proto, ADR-002) as a pure state machine:
 * `step(state, event) → { state, effects }`. The session performs the effects (send a message,
 * apply a snapshot or delta) and feeds back what happened.
 *
 * Rules:
 * - `applied` is the revision (within `epoch`) the interface holds; 0 = none/unknown. It survives
 *   disconnects (fail-open), and the hello of every (re)connect carries it.
 * - A snapshot is always applied (the diff makes an unchanged one free).
 * - A delta is applied only if it is exactly `applied + 1`. A delta at or below `applied` is a
 *   duplicate: ignored and answered with a re-ack of `applied` (acks are cumulative). A delta
 *   beyond `applied + 1` is a gap, and a delta with nothing applied is an unknown revision: both
 *   ask for a snapshot once and ignore further deltas until it arrives.
 * - An ack is sent only after the apply succeeded, never on receipt.
 * - A failed apply leaves the interface in an unknown state: `applied` becomes 0 so that neither
 *   this stream nor a reconnect resumes from it; a snapshot is requested.
 * - One apply at a time: the session waits for `applied`/`apply-failed` before the next event.
 */
export type Health = 'synced' | 'resyncing' | 'degraded';
export type SnapshotReason = 'gap' | 'unknown-revision' | 'apply-failed';

export interface TrackerState {
  epoch: string;
  applied: bigint;
  connected: boolean;
  awaitingSnapshot: boolean;
  applying: { revision: bigint; epoch: string } | null;
  health: Health;
}

export type TrackerEvent =
  | { type: 'connected' }
  | { type: 'disconnected' }
  | { type: 'snapshot'; epoch: string; revision: bigint }
  | { type: 'delta'; revision: bigint }
  | { type: 'applied' }
  | { type: 'apply-failed'; error: string };

export type Effect =
  | { type: 'send-hello'; epoch: string; appliedRevision: bigint }
  | { type: 'apply-snapshot'; revision: bigint }
  | { type: 'apply-delta'; revision: bigint }
  | { type: 'ack'; epoch: string; revision: bigint }
  | { type: 'request-snapshot'; reason: SnapshotReason; appliedRevision: bigint; receivedRevision: bigint; detail: string }
  | { type: 'report-status'; health: Health; appliedRevision: bigint; message: string };

export interface Step {
  state: TrackerState;
  effects: Effect[];
}

export const initialTrackerState = (): TrackerState => ({
  epoch: '',
  applied: 0n,
  connected: false,
  awaitingSnapshot: false,
  applying: null,
  health: 'resyncing',
});

function withHealth(state: TrackerState, health: Health, message: string, effects: Effect[]): Step {
  if (state.health === health) return { state, effects };
  const next = { ...state, health };
  return { state: next, effects: [...effects, { type: 'report-status', health, appliedRevision: next.applied, message }] };
}

function requestSnapshot(state: TrackerState, reason: SnapshotReason, received: bigint, detail: string): Step {
  const next = { ...state, awaitingSnapshot: true };
  const effect: Effect = { type: 'request-snapshot', reason, appliedRevision: state.applied, receivedRevision: received, detail };
  return withHealth(next, 'resyncing', detail, [effect]);
}

function onDelta(state: TrackerState, revision: bigint): Step {
  if (state.awaitingSnapshot) return { state, effects: [] };
  if (state.applied === 0n) return requestSnapshot(state, 'unknown-revision', revision, `delta ${revision} with no applied state`);
  if (revision <= state.applied) return { state, effects: [{ type: 'ack', epoch: state.epoch, revision: state.applied }] };
  if (revision > state.applied + 1n) {
    return requestSnapshot(state, 'gap', revision, `delta ${revision} after ${state.applied}: missing ${state.applied + 1n}`);
  }
  return { state: { ...state, applying: { revision, epoch: state.epoch } }, effects: [{ type: 'apply-delta', revision }] };
}

function onApplied(state: TrackerState): Step {
  const done = state.applying!;
  const next: TrackerState = { ...state, applying: null, applied: done.revision, epoch: done.epoch };
  return withHealth(next, 'synced', '', [{ type: 'ack', epoch: done.epoch, revision: done.revision }]);
}

function onApplyFailed(state: TrackerState, error: string): Step {
  const received = state.applying!.revision;
  const next: TrackerState = { ...state, applying: null, applied: 0n, epoch: '', awaitingSnapshot: true, health: 'degraded' };
  const effects: Effect[] = [
    { type: 'report-status', health: 'degraded', appliedRevision: 0n, message: error },
    { type: 'request-snapshot', reason: 'apply-failed', appliedRevision: 0n, receivedRevision: received, detail: error },
  ];
  return { state: next, effects };
}

export function step(state: TrackerState, event: TrackerEvent): Step {
  const isResult = event.type === 'applied' || event.type === 'apply-failed';
  if (isResult !== (state.applying !== null)) {
    throw new Error(isResult ? `${event.type} with no apply in progress` : `${event.type} while an apply is in progress`);
  }
  if (!state.connected && (event.type === 'snapshot' || event.type === 'delta')) throw new Error(`${event.type} while disconnected`);
  switch (event.type) {
    case 'connected':
      return {
        state: { ...state, connected: true, awaitingSnapshot: false },
        effects: [{ type: 'send-hello', epoch: state.epoch, appliedRevision: state.applied }],
      };
    case 'disconnected':
      return { state: { ...state, connected: false, awaitingSnapshot: false }, effects: [] };
    case 'snapshot':
      return {
        state: { ...state, awaitingSnapshot: false, applying: { revision: event.revision, epoch: event.epoch } },
        effects: [{ type: 'apply-snapshot', revision: event.revision }],
      };
    case 'delta':
      return onDelta(state, event.revision);
    case 'applied':
      return onApplied(state);
    case 'apply-failed':
      return onApplyFailed(state, event.error);
  }
}
