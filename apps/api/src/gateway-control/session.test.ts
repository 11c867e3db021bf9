import { create } from '@bufbuild/protobuf';
import { DeltaSchema } from '@palisade/proto';
import { describe, expect, it } from 'vitest';
import type { SecretBox } from '#src/lib/crypto.js';
import type { ChangeRow, ControlRepo } from './control.repo.js';
import { LocationFeed } from './location-feed.js';
import { GatewaySession, MAX_QUEUED } from './session.js';

/** A location at revision `head` whose every delta the feed can serve. */
function fakeDeps(head: bigint) {
  const repo = {
    connectGateway: async () => 1,
    disconnectGateway: async () => undefined,
    acknowledge: async () => undefined,
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

/**
 * A location at revision 7 served by a real LocationFeed; the stream's hello says it applied 7.
 * `connectGateway` (the first step of `open`) stays pending until the test calls `connected()`.
 */
function openingStream() {
  const world = { revision: 7n, changes: [] as ChangeRow[] };
  let connected: () => void = () => undefined;
  const repo = {
    connectGateway: () =>
      new Promise<number>((resolve) => {
        connected = () => resolve(1);
      }),
    disconnectGateway: async () => undefined,
    acknowledge: async () => undefined,
    state: async () => ({ locationId: 1, revision: world.revision, epoch: 'E', logFloor: 0n }),
    changes: async (_id: number, after: bigint, through: bigint) =>
      world.changes.filter((c) => c.revision > after && c.revision <= through),
    peers: async (_id: number, keys?: string[]) =>
      (keys ?? ['k1']).map((k) => ({ publicKey: k, allowedIps: ['10.0.0.9/32'], presharedKey: '', presharedKeyEnc: null })),
    interfaceOf: async () => ({ port: 51820, addresses: ['10.0.0.1/24'], privateKeyEnc: 'x', keepalive: 25 }),
    aclInput: async () => ({ aclEnabled: false, defaultAllow: false, rules: [], aliases: new Map(), devices: [], now: new Date() }),
    consistent: <T>(fn: (r: ControlRepo) => Promise<T>) => fn(repo as unknown as ControlRepo),
  };
  for (let r = 1n; r <= 7n; r++) world.changes.push({ revision: r, kind: 'peer', key: `k${r}` });
  const feed = new LocationFeed(1, repo as unknown as ControlRepo, { decrypt: () => 'key' } as unknown as SecretBox);
  const deps = { repo: repo as unknown as ControlRepo, feed, ingestStats: () => undefined, log: () => undefined };
  const session = new GatewaySession(1, 'hash', hello, { epoch: 'E', revision: 7n }, deps);
  const commit = () => {
    world.revision += 1n;
    world.changes.push({ revision: world.revision, kind: 'peer', key: `k${world.revision}` });
    return world.revision;
  };
  return { feed, session, commit, connected: () => connected() };
}

/** What the stream has queued for its gateway, as `kind@revision`. */
async function queued(session: GatewaySession): Promise<string[]> {
  const out: string[] = [];
  const it = session.outbox[Symbol.asyncIterator]();
  while (session.outbox.size > 0) {
    const { kind } = (await it.next()).value as { kind: { case: string; value: { revision: bigint } } };
    out.push(`${kind.case}@${kind.value.revision}`);
  }
  return out;
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

  // A change committed while the stream was still recording its hello (connectGateway): its
  // notification woke the stream before it knew what the gateway had applied. The gateway (at 7
  // of the current epoch) must get delta 8, not a snapshot (or a snapshot and nothing after it).
  it.each([
    ['a fresh feed', false, false],
    ['a feed that already serves the location', true, false],
    ['the hello recorded while the early wake reads', false, true],
    ['a warm feed, the hello recorded while the early wake reads', true, true],
  ])('a change notified while the stream opens reaches the gateway as a delta (%s)', async (_name, warm, overlap) => {
    const { feed, session, commit, connected } = openingStream();
    if (warm) await feed.snapshot();
    const opened = session.open();
    feed.noteRevision(commit());
    session.wake();
    if (!overlap) await settle();
    connected();
    await opened;
    await settle();
    expect(await queued(session)).toEqual(['delta@8']);

    feed.noteRevision(commit());
    session.wake();
    await settle();
    expect(await queued(session)).toEqual(['delta@9']);
  });
});
