import type { ActivityFeed, ActivityLogEntry } from '@palisade/contracts';

/**
 * The live activity stream's state, kept pure so the cursor rules are testable without timers.
 *
 * The API hands out entries after an opaque cursor, in delivery order, only once every
 * transaction before them has ended (ADR-005): resuming from the last cursor it returned, after
 * an error or a pause, therefore neither skips nor repeats an entry. The list is newest first and
 * capped; while paused, new entries are kept aside (and counted) and the visible list stays still.
 */
export const STREAM_CAP = 500;

export type StreamConnection = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface StreamState {
  /** Shown, newest first, at most `STREAM_CAP`. */
  entries: readonly ActivityLogEntry[];
  /** Received while paused, newest first, at most `STREAM_CAP`. */
  pending: readonly ActivityLogEntry[];
  /** How many arrived while paused (can exceed what `pending` keeps). */
  newCount: number;
  /** How many the last resume added to the top (the "N new" note). */
  resumedCount: number;
  /** Ids added by the last batch or resume, highlighted in the list. */
  freshIds: ReadonlySet<number>;
  /** Where the next request continues; undefined until the first answer. */
  cursor: string | undefined;
  isPaused: boolean;
  connection: StreamConnection;
  /** Failed requests in a row (for the backoff). */
  failures: number;
}

export const initialStreamState: StreamState = {
  entries: [],
  pending: [],
  newCount: 0,
  resumedCount: 0,
  freshIds: new Set(),
  cursor: undefined,
  isPaused: false,
  connection: 'connecting',
  failures: 0,
};

export type StreamAction =
  | { type: 'feed'; feed: ActivityFeed }
  | { type: 'failed' }
  | { type: 'stopped' }
  | { type: 'pause' }
  | { type: 'resume' };

/** Newest first, without entries already shown or kept aside (a second guard against doubles). */
function newestFirst(items: readonly ActivityLogEntry[], seen: readonly (readonly ActivityLogEntry[])[]): ActivityLogEntry[] {
  const ids = new Set(seen.flatMap((list) => list.map((e) => e.id)));
  const out: ActivityLogEntry[] = [];
  for (const item of items) {
    if (ids.has(item.id)) continue;
    ids.add(item.id);
    out.unshift(item);
  }
  return out;
}

export function streamReducer(state: StreamState, action: StreamAction): StreamState {
  switch (action.type) {
    case 'feed': {
      const added = newestFirst(action.feed.items, [state.entries, state.pending]);
      const base = { ...state, cursor: action.feed.cursor, connection: 'live' as const, failures: 0 };
      if (added.length === 0) return base;
      if (state.isPaused) {
        return { ...base, pending: [...added, ...state.pending].slice(0, STREAM_CAP), newCount: state.newCount + added.length };
      }
      return { ...base, entries: [...added, ...state.entries].slice(0, STREAM_CAP), freshIds: new Set(added.map((e) => e.id)) };
    }
    case 'failed':
      return { ...state, connection: 'reconnecting', failures: state.failures + 1 };
    case 'stopped':
      return { ...state, connection: 'stopped' };
    case 'pause':
      return state.isPaused ? state : { ...state, isPaused: true, newCount: 0, resumedCount: 0, freshIds: new Set() };
    case 'resume':
      if (!state.isPaused) return state;
      return {
        ...state,
        isPaused: false,
        entries: [...state.pending, ...state.entries].slice(0, STREAM_CAP),
        pending: [],
        newCount: 0,
        resumedCount: state.newCount,
        freshIds: new Set(state.pending.map((e) => e.id)),
      };
  }
}

/** Exponential backoff with jitter: 1 s, 2 s, 4 s… capped at 30 s, each between half and all of it. */
export function backoffDelay(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(30_000, 1_000 * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
