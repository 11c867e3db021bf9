import { describe, expect, it } from 'vitest';
import type { SecretBox } from '#src/lib/crypto.js';
import type { ChangeRow, ControlRepo, LocationState, PeerRow } from './control.repo.js';
import { LocationFeed } from './location-feed.js';

/**
 * A fake control repository over an in-memory location: `revision` moves when `commit` is called;
 * `onStateRead` runs while a read is in flight (where a notification can slip in).
 */
function fakeLocation() {
  const world = {
    revision: 5n,
    changes: [] as ChangeRow[],
    peers: new Map<string, PeerRow>(),
    onStateRead: undefined as (() => void) | undefined,
  };
  const repo = {
    async state(): Promise<LocationState> {
      const state = { locationId: 1, revision: world.revision, epoch: 'E', logFloor: 0n };
      const hook = world.onStateRead;
      world.onStateRead = undefined;
      hook?.();
      return state;
    },
    async changes(_id: number, after: bigint, through: bigint) {
      return world.changes.filter((c) => c.revision > after && c.revision <= through);
    },
    async peers(_id: number, keys?: string[]) {
      return [...world.peers.values()].filter((p) => !keys || keys.includes(p.publicKey));
    },
    async interfaceOf() {
      return { port: 51820, addresses: ['10.0.0.1/24'], privateKeyEnc: 'x', keepalive: 25 };
    },
    async aclInput() {
      return { aclEnabled: false, defaultAllow: false, rules: [], aliases: new Map(), devices: [], now: new Date() };
    },
    consistent<T>(fn: (r: ControlRepo) => Promise<T>) {
      return fn(repo as unknown as ControlRepo);
    },
  };
  const commit = (key: string) => {
    world.revision += 1n;
    world.changes.push({ revision: world.revision, kind: 'peer', key });
    world.peers.set(key, { publicKey: key, allowedIps: ['10.0.0.9/32'], presharedKey: '', presharedKeyEnc: null });
    return world.revision;
  };
  const secrets = { decrypt: () => 'key' } as unknown as SecretBox;
  return { world, commit, feed: new LocationFeed(1, repo as unknown as ControlRepo, secrets) };
}

describe('LocationFeed', () => {
  it('a new feed keeps a revision announced while its first read was in flight', async () => {
    const { world, commit, feed } = fakeLocation();
    // The first read sees revision 5; meanwhile revision 6 commits and its notification arrives.
    world.onStateRead = () => feed.noteRevision(commit('peer-6'));
    const first = await feed.catchUp('E', 5n);
    expect(first.type).toBe('deltas');
    // The stream at 5 must still get revision 6, in this call or the next (the wake-up).
    const deltas = first.type === 'deltas' && first.deltas.length > 0 ? first : await feed.catchUp('E', 5n);
    expect(deltas.type === 'deltas' && deltas.deltas.map((d) => d.revision)).toEqual([6n]);
  });

  it('changes that keep committing while snapshots are read are all sent afterwards', async () => {
    const { world, commit, feed } = fakeLocation();
    // Under load: every read is overtaken by a commit whose notification arrives before it ends.
    let commits = 6;
    const overtake = () => {
      feed.noteRevision(commit(`peer-${world.revision + 1n}`));
      if (--commits > 0) world.onStateRead = overtake;
    };
    world.onStateRead = overtake;
    const snapshot = await feed.snapshot();
    expect(snapshot).toBeDefined();
    // Every commit was announced (and woke the stream): catching up from the snapshot's revision
    // until nothing is left reaches the last one.
    let at = snapshot?.revision ?? 0n;
    for (let wake = 0; wake < 10; wake++) {
      const caught = await feed.catchUp('E', at);
      if (caught.type !== 'deltas' || caught.deltas.length === 0) break;
      at = caught.deltas.at(-1)?.revision ?? at;
    }
    expect(at).toBe(world.revision);
  });

  it('a stream catching up while changes keep committing gets deltas, not a snapshot', async () => {
    const { world, commit, feed } = fakeLocation();
    await feed.snapshot();
    feed.noteRevision(commit('peer-6'));
    let commits = 5;
    const overtake = () => {
      feed.noteRevision(commit(`peer-${world.revision + 1n}`));
      if (--commits > 0) world.onStateRead = overtake;
    };
    world.onStateRead = overtake;
    const caught = await feed.catchUp('E', 5n);
    expect(caught.type).toBe('deltas');
    expect(caught.type === 'deltas' && caught.deltas[0]?.revision).toBe(6n);
  });

  it('a notification of another epoch cannot make the snapshot wait forever', async () => {
    const { feed } = fakeLocation();
    feed.noteRevision(500n);
    const snapshot = await feed.snapshot();
    expect(snapshot?.revision).toBe(5n);
    expect(feed.knownRevision).toBe(5n);
  });
});
