import { create } from '@bufbuild/protobuf';
import { createRouterTransport } from '@connectrpc/connect';
import { type ControlMessage, ControlMessageSchema, ControlErrorCode, GatewayService } from '@palisade/proto';
import { describe, expect, it } from 'vitest';
import type { Agent } from './agent.js';
import { runSession } from './session.js';

/** An agent that applies nothing: it only reports the control errors it hears, as the real one does. */
const fakeAgent = {
  connected: () => [],
  handle: async (message: ControlMessage) =>
    message.kind.case === 'error' ? { messages: [], controlError: message.kind.value.code } : { messages: [] },
  collectStats: async () => null,
  disconnected: () => {},
} as unknown as Agent;

const shutdown = create(ControlMessageSchema, {
  kind: { case: 'error', value: { code: ControlErrorCode.SERVER_SHUTDOWN, message: 'server shutting down' } },
});

interface Seen {
  opened: number[];
  delays: number[];
  logs: string[];
}

/** Runs a session against an in-memory server whose every stream ends as `end` says, until `done` (5 s at most). */
async function reconnects(end: 'shutdown' | 'plain', done: (seen: Seen) => boolean): Promise<Seen> {
  const opened: number[] = [];
  const delays: number[] = [];
  const logs: string[] = [];
  const transport = createRouterTransport(({ service }) =>
    service(GatewayService, {
      async *connect() {
        opened.push(Date.now());
        if (end === 'shutdown') yield shutdown;
      },
    }),
  );
  const abort = new AbortController();
  const session = runSession({
    agent: fakeAgent,
    transport,
    token: 't',
    statsIntervalMs: 60_000,
    signal: abort.signal,
    log: (m) => logs.push(m),
    // A long backoff: only the immediate path can reconnect within the test.
    delay: (attempt) => {
      delays.push(attempt);
      return 60_000;
    },
  });
  const deadline = Date.now() + 5000;
  while (!done({ opened, delays, logs }) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  abort.abort();
  await session;
  return { opened, delays, logs };
}

describe('runSession', () => {
  it('reconnects at once when the server ends the stream with SERVER_SHUTDOWN (a replica draining), without backoff', async () => {
    const { opened, delays, logs } = await reconnects('shutdown', (seen) => seen.opened.length >= 3);
    expect(opened.length).toBeGreaterThanOrEqual(3);
    expect(delays).toEqual([]);
    expect(logs).toContain('reconnecting in 0.0 s (keeping the last applied state)');
    expect(opened.at(-1)! - opened[0]!).toBeLessThan(2000);
  });

  it('backs off when a stream ends without a word (the server may be gone)', async () => {
    const { opened, delays } = await reconnects('plain', (seen) => seen.delays.length >= 1);
    expect(opened).toHaveLength(1);
    expect(delays).toEqual([1]);
  });
});
