import type { ActivityFeed, ActivityLogEntry } from '@palisade/contracts';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { useActivityStream } from './use-activity-stream';

const entry = (id: number): ActivityLogEntry => ({
  id,
  timestamp: new Date(Date.UTC(2026, 10, 24, 10, 0, id)).toISOString(),
  actor_type: 'user',
  username: 'admin',
  module: 'users',
  event: 'user.created',
  details: {},
});
const answer = (ids: number[], cursor: string): ActivityFeed => ({ items: ids.map(entry), cursor });

/** A long poll with nothing new: stays open until the hook aborts it. */
const hang = (request: Request) =>
  new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

interface Seen {
  cursor: string | null;
  wait: string | null;
}

/** Answers the feed requests in turn from `script`; after it, long polls hang. */
function serve(script: ((request: Request) => Promise<Response> | Response)[]): Seen[] {
  const seen: Seen[] = [];
  setFetchHandler((request) => {
    const url = new URL(request.url);
    if (url.pathname !== '/api/v1/activity_log/feed') return new Response(null, { status: 404 });
    seen.push({ cursor: url.searchParams.get('cursor'), wait: url.searchParams.get('wait') });
    const next = script.shift();
    return next ? next(request) : hang(request);
  });
  return seen;
}

afterEach(() => setFetchHandler(() => new Response(null, { status: 404 })));

describe('useActivityStream', () => {
  it('starts with the latest entries, then long-polls from the cursor each answer gave', async () => {
    const seen = serve([() => jsonResponse(200, answer([1, 2], '5:2')), () => jsonResponse(200, answer([3], '6:3'))]);
    const { result, unmount } = renderHook(() => useActivityStream({ retryDelay: () => 0 }));
    await waitFor(() => expect(result.current[0].entries.map((e) => e.id)).toEqual([3, 2, 1]));
    await waitFor(() => expect(seen).toHaveLength(3));
    expect(seen).toEqual([
      { cursor: null, wait: null },
      { cursor: '5:2', wait: '1' },
      { cursor: '6:3', wait: '1' },
    ]);
    unmount();
  });

  it('after errors retries from the same cursor: nothing lost, nothing doubled', async () => {
    const seen = serve([
      () => jsonResponse(200, answer([1, 2], '5:2')),
      () => problemResponse(503, 'internal'),
      () => Promise.reject(new TypeError('network down')),
      () => jsonResponse(200, answer([3, 4], '7:4')),
    ]);
    const { result, unmount } = renderHook(() => useActivityStream({ retryDelay: () => 0 }));
    await waitFor(() => expect(result.current[0].entries.map((e) => e.id)).toEqual([4, 3, 2, 1]));
    await waitFor(() => expect(seen).toHaveLength(5));
    expect(seen.map((s) => s.cursor)).toEqual([null, '5:2', '5:2', '5:2', '7:4']);
    expect(result.current[0].connection).toBe('live');
    unmount();
  });

  it('shows the connection as reconnecting while the API is unreachable', async () => {
    serve([() => jsonResponse(200, answer([1], '5:1')), () => problemResponse(502, 'internal')]);
    // A long wait after the failure keeps the hook in its reconnecting state for the assertion.
    const { result, unmount } = renderHook(() => useActivityStream({ retryDelay: () => 60_000 }));
    await waitFor(() => expect(result.current[0].connection).toBe('reconnecting'));
    expect(result.current[0].cursor).toBe('5:1');
    expect(result.current[0].entries.map((e) => e.id)).toEqual([1]);
    unmount();
  });

  it('stops on a refusal that retrying cannot fix', async () => {
    const seen = serve([() => jsonResponse(200, answer([1], '5:1')), () => problemResponse(400, 'validation')]);
    const { result, unmount } = renderHook(() => useActivityStream({ retryDelay: () => 0 }));
    await waitFor(() => expect(result.current[0].connection).toBe('stopped'));
    expect(seen).toHaveLength(2);
    unmount();
  });

  it('keeps polling while paused and shows what came on resume', async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    serve([
      () => jsonResponse(200, answer([1], '5:1')),
      async () => {
        await gate;
        return jsonResponse(200, answer([2, 3], '6:3'));
      },
    ]);
    const { result, unmount } = renderHook(() => useActivityStream({ retryDelay: () => 0 }));
    await waitFor(() => expect(result.current[0].entries).toHaveLength(1));
    act(() => result.current[1].pause());
    release?.();
    await waitFor(() => expect(result.current[0].newCount).toBe(2));
    expect(result.current[0].entries.map((e) => e.id)).toEqual([1]);
    act(() => result.current[1].resume());
    expect(result.current[0].entries.map((e) => e.id)).toEqual([3, 2, 1]);
    expect(result.current[0].resumedCount).toBe(2);
    unmount();
  });
});
