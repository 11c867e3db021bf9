import { create } from '@bufbuild/protobuf';
import { DeltaSchema } from '@palisade/proto';
import { describe, expect, it } from 'vitest';
import type { ControlRepo } from './control.repo.js';
import type { LocationFeed } from './location-feed.js';
import { GatewaySession, MAX_QUEUED } from './session.js';

/** A location at revision `head` whose every delta the feed can serve. */
function fakeDeps(head: bigint) {
  const repo = {
    connectGateway: async () => 1,
    disconnectGateway: async () => undefined,
    state: async () => ({ locationId: 1, revision: head, epoch: 'E', logFloor: 0n }),
  };
  const feed = {
    noteRevision: () => undefined,
    catchUp: async (epoch: string, after: bigint) => {
      const deltas = [];
      for (let r = after + 1n; r <= head; r++) deltas.push(create(DeltaSchema, { revision: r, ops: [] }));
      return { type: 'deltas' as const, epoch, revision: head, deltas };
    },
  };
  return {
    repo: repo as unknown as ControlRepo,
    feed: feed as unknown as LocationFeed,
    ingestStats: () => undefined,
    log: () => undefined,
  };
}

const hello = { gatewayId: 'gw', name: 'gw', hostname: 'h', version: '1', interfaceName: 'wg0', implementation: 'userspace' as const };
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('GatewaySession', () => {
  it('queues at most MAX_QUEUED messages for a gateway that does not read, and sends the rest in order once it does', async () => {
    const head = BigInt(MAX_QUEUED * 3 + 17);
    const session = new GatewaySession(1, 'hash', hello, { epoch: 'E', revision: 1n }, fakeDeps(head));
    await session.open();
    await settle();
    expect(session.outbox.size).toBe(MAX_QUEUED);

    const received: bigint[] = [];
    const it = session.outbox[Symbol.asyncIterator]();
    while (received.length < Number(head) - 1) {
      const next = await it.next();
      const message = next.value;
      if (message?.kind.case !== 'delta') throw new Error('expected a delta');
      received.push(message.kind.value.revision);
      expect(session.outbox.size).toBeLessThanOrEqual(MAX_QUEUED);
    }
    expect(received).toEqual(Array.from({ length: Number(head) - 1 }, (_, i) => BigInt(i + 2)));
    await settle();
    expect(session.outbox.size).toBe(0);
  });
});
