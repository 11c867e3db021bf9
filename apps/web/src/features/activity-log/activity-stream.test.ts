import type { ActivityLogEntry } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { backoffDelay, initialStreamState, STREAM_CAP, type StreamAction, type StreamState, streamReducer } from './activity-stream';

const entry = (id: number): ActivityLogEntry => ({
  id,
  timestamp: new Date(Date.UTC(2026, 10, 24, 10, 0, id)).toISOString(),
  actor_type: 'user',
  username: 'admin',
  module: 'users',
  event: 'user.created',
  details: {},
});
const feed = (ids: number[], cursor: string): StreamAction => ({ type: 'feed', feed: { items: ids.map(entry), cursor } });
const run = (...actions: StreamAction[]): StreamState => actions.reduce(streamReducer, initialStreamState);
const ids = (list: readonly ActivityLogEntry[]) => list.map((e) => e.id);

describe('activity stream state', () => {
  it('shows the first answer newest first and keeps its cursor', () => {
    const state = run(feed([1, 2, 3], '10:3'));
    expect(ids(state.entries)).toEqual([3, 2, 1]);
    expect(state.cursor).toBe('10:3');
    expect(state.connection).toBe('live');
  });

  it('adds later entries on top and moves the cursor on', () => {
    const state = run(feed([1, 2], '10:2'), feed([3, 4], '11:4'));
    expect(ids(state.entries)).toEqual([4, 3, 2, 1]);
    expect(state.cursor).toBe('11:4');
    expect([...state.freshIds]).toEqual([4, 3]);
  });

  it('moves the cursor on an empty long-poll answer without touching the list', () => {
    const state = run(feed([1], '10:1'), feed([], '12:1'));
    expect(ids(state.entries)).toEqual([1]);
    expect(state.cursor).toBe('12:1');
  });

  it('keeps the cursor through a failure and counts failures until the next answer', () => {
    const failed = run(feed([1], '10:1'), { type: 'failed' }, { type: 'failed' });
    expect(failed.cursor).toBe('10:1');
    expect(failed.connection).toBe('reconnecting');
    expect(failed.failures).toBe(2);
    const back = streamReducer(failed, feed([2], '11:2'));
    expect(ids(back.entries)).toEqual([2, 1]);
    expect(back.failures).toBe(0);
    expect(back.connection).toBe('live');
  });

  it('never shows an entry twice, even if an answer repeated one', () => {
    const state = run(feed([1, 2], '10:2'), feed([2, 3, 3], '11:3'));
    expect(ids(state.entries)).toEqual([3, 2, 1]);
  });

  it('caps the list, dropping the oldest', () => {
    const many = Array.from({ length: STREAM_CAP + 20 }, (_, i) => i + 1);
    const state = run(feed(many, '1:520'));
    expect(state.entries).toHaveLength(STREAM_CAP);
    expect(state.entries[0]?.id).toBe(STREAM_CAP + 20);
    expect(state.entries.at(-1)?.id).toBe(21);
  });

  it('while paused keeps the list still and counts what arrives; resume puts it on top and says how many', () => {
    const paused = run(feed([1], '10:1'), { type: 'pause' }, feed([2, 3], '11:3'), feed([4], '12:4'));
    expect(ids(paused.entries)).toEqual([1]);
    expect(paused.newCount).toBe(3);
    expect(paused.cursor).toBe('12:4');
    const resumed = streamReducer(paused, { type: 'resume' });
    expect(ids(resumed.entries)).toEqual([4, 3, 2, 1]);
    expect(resumed.resumedCount).toBe(3);
    expect(resumed.newCount).toBe(0);
    expect(resumed.pending).toEqual([]);
    expect(resumed.isPaused).toBe(false);
  });

  it('counts every entry of a long pause but keeps only the cap aside', () => {
    const many = Array.from({ length: STREAM_CAP + 5 }, (_, i) => i + 2);
    const paused = run(feed([1], '10:1'), { type: 'pause' }, feed(many, '20:506'));
    expect(paused.newCount).toBe(STREAM_CAP + 5);
    expect(paused.pending).toHaveLength(STREAM_CAP);
    const resumed = streamReducer(paused, { type: 'resume' });
    expect(resumed.entries).toHaveLength(STREAM_CAP);
    expect(resumed.entries[0]?.id).toBe(STREAM_CAP + 6);
  });
});

describe('backoffDelay', () => {
  it('doubles from 1 s up to 30 s, with jitter between half and all of it', () => {
    expect(backoffDelay(1, () => 1)).toBe(1_000);
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(3, () => 1)).toBe(4_000);
    expect(backoffDelay(20, () => 1)).toBe(30_000);
    expect(backoffDelay(20, () => 0)).toBe(15_000);
  });
});
