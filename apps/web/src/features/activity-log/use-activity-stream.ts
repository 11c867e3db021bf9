import { ApiError, unwrap } from '@palisade/api-client';
import type { ActivityFeed } from '@palisade/contracts';
import { useEffect, useReducer, useRef } from 'react';
import { useAuthStore } from '@/features/auth/auth-store';
import { api } from '@/lib/api';
import { backoffDelay, initialStreamState, type StreamState, streamReducer } from './activity-stream';

interface StreamOptions {
  /** Milliseconds to wait after the n-th failure in a row (tests pass 0). */
  retryDelay?: (failures: number) => number;
}

async function fetchFeed(cursor: string | undefined, signal: AbortSignal): Promise<ActivityFeed> {
  // Without a cursor the API answers the latest entries at once; with one it waits for new ones.
  const query = cursor ? { cursor, wait: '1' as const } : {};
  return unwrap(api.GET('/api/v1/activity_log/feed', { params: { query }, signal }));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** A refusal that trying again will not change: the session ended, or the request itself is wrong. */
const isFinal = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

/**
 * Long-polls the activity feed from mount to unmount. Every request continues from the cursor of
 * the last answer, also after an error (retried with backoff), so nothing is lost or doubled.
 */
export function useActivityStream({
  retryDelay = backoffDelay,
}: StreamOptions = {}): [StreamState, { pause: () => void; resume: () => void }] {
  const [state, dispatch] = useReducer(streamReducer, initialStreamState);
  const delayRef = useRef(retryDelay);
  delayRef.current = retryDelay;

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const run = async () => {
      let cursor: string | undefined;
      let failures = 0;
      while (!signal.aborted) {
        try {
          const feed = await fetchFeed(cursor, signal);
          if (signal.aborted) return;
          cursor = feed.cursor;
          failures = 0;
          dispatch({ type: 'feed', feed });
        } catch (error) {
          if (signal.aborted) return;
          if (isFinal(error)) {
            if (error instanceof ApiError && error.status === 401 && useAuthStore.getState().user) useAuthStore.getState().endSession();
            dispatch({ type: 'stopped' });
            return;
          }
          failures += 1;
          dispatch({ type: 'failed' });
          await sleep(delayRef.current(failures), signal);
        }
      }
    };
    void run();
    return () => controller.abort();
  }, []);

  return [state, { pause: () => dispatch({ type: 'pause' }), resume: () => dispatch({ type: 'resume' }) }];
}
