import { create } from '@bufbuild/protobuf';
import { type ControlMessage, ControlMessageSchema, type Delta } from '@palisade/proto';
import type { SecretBox } from '#src/lib/crypto.js';
import type { ControlRepo, LocationState, PeerRow } from './control.repo.js';
import { firewallDeltaOps, snapshotFirewall } from './firewall-feed.js';
import { buildDeltas, toInterface, toPeer } from './protocol.js';

/**
 * What one API replica knows of one location for the streams it serves: the latest snapshot and
 * the recent deltas, each built once and shared by every gateway of the location on this
 * replica (single-flight: N gateways catching up after a change cost one database read).
 */
const CACHE_REVISIONS = 1024;

export interface Snapshot {
  epoch: string;
  revision: bigint;
  message: ControlMessage;
}

export type CatchUp = { type: 'deltas'; epoch: string; revision: bigint; deltas: Delta[] } | { type: 'snapshot' } | { type: 'gone' };

export class LocationFeed {
  #epoch = '';
  #known = 0n;
  #deltas = new Map<bigint, Delta>();
  #snapshot: Snapshot | undefined;
  #snapshotLoad: Promise<Snapshot | undefined> | undefined;
  #deltaLoad: Promise<void> | undefined;

  constructor(
    readonly locationId: number,
    private readonly repo: ControlRepo,
    private readonly secrets: SecretBox,
  ) {}

  /** A notification said the location reached `revision`. */
  noteRevision(revision: bigint): void {
    if (revision > this.#known) this.#known = revision;
  }

  get knownRevision(): bigint {
    return this.#known;
  }

  /**
   * The current snapshot (rebuilt only when a newer revision is known). It may be behind the
   * latest notification (one that arrived while it was read): the stream catches up from it with
   * deltas, and that notification's wake-up is still to come.
   */
  async snapshot(): Promise<Snapshot | undefined> {
    const cached = this.#snapshot;
    if (cached && cached.revision >= this.#known) return cached;
    this.#snapshotLoad ??= this.#loadSnapshot().finally(() => {
      this.#snapshotLoad = undefined;
    });
    return this.#snapshotLoad;
  }

  async #loadSnapshot(): Promise<Snapshot | undefined> {
    const knownBefore = this.#known;
    const built = await this.repo.consistent(async (repo) => {
      const state = await repo.state(this.locationId);
      const iface = await repo.interfaceOf(this.locationId);
      if (!state || !iface) return undefined;
      const firewall = await snapshotFirewall(repo, this.locationId, new Date());
      if (!firewall) return undefined;
      return { state, iface, firewall, peers: this.#open(await repo.peers(this.locationId)) };
    });
    if (!built) return undefined;
    const { state, iface, peers, firewall } = built;
    this.#adopt(state, knownBefore);
    const message = create(ControlMessageSchema, {
      kind: {
        case: 'snapshot',
        value: {
          revisionEpoch: state.epoch,
          revision: state.revision,
          interface: toInterface(iface, this.secrets.decrypt(iface.privateKeyEnc)),
          peers: peers.map((p) => toPeer(p, iface.keepalive)),
          firewall,
        },
      },
    });
    const snapshot = { epoch: state.epoch, revision: state.revision, message };
    if (!this.#snapshot || snapshot.revision >= this.#snapshot.revision) this.#snapshot = snapshot;
    return snapshot;
  }

  /** Opens the sealed preshared keys of MFA session peers. */
  #open(peers: PeerRow[]): PeerRow[] {
    for (const p of peers) if (p.presharedKeyEnc) p.presharedKey = this.secrets.decrypt(p.presharedKeyEnc);
    return peers;
  }

  /**
   * Takes a read's state. `knownBefore` is what the notifications had announced when the read
   * began: PostgreSQL delivers a notification only once its commit is visible, so a read that
   * began later and does not see that revision proves the notification was of an earlier epoch;
   * then, unless a newer notification arrived meanwhile, the database is the truth. A revision
   * announced while the read was in flight stays known (its wake-up is still to come): lowering
   * it would leave the streams behind it with nothing that ever wakes them again.
   */
  #adopt(state: LocationState, knownBefore: bigint): void {
    if (state.epoch !== this.#epoch) {
      // A new feed may already have heard of a newer revision (a notification that arrived while
      // this read was in flight): keep it, or that change would never be sent. A real change of
      // epoch starts over.
      const fresh = this.#epoch === '';
      this.#epoch = state.epoch;
      this.#deltas.clear();
      this.#snapshot = undefined;
      this.#known = fresh && this.#known > state.revision ? this.#known : state.revision;
    }
    if (state.revision < knownBefore && this.#known === knownBefore) this.#known = state.revision;
    this.noteRevision(state.revision);
  }

  /** What a stream at (`epoch`, `after`) needs to reach the latest revision. */
  async catchUp(epoch: string, after: bigint): Promise<CatchUp> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (epoch === this.#epoch && after >= this.#known) return { type: 'deltas', epoch, revision: after, deltas: [] };
      const cached = epoch === this.#epoch ? this.#fromCache(after) : undefined;
      if (cached) return { type: 'deltas', epoch, revision: this.#known, deltas: cached };
      this.#deltaLoad ??= this.#loadDeltas(after).finally(() => {
        this.#deltaLoad = undefined;
      });
      const result = await this.#deltaLoad.then(
        () => undefined,
        (e: unknown) => e,
      );
      if (result === GONE) return { type: 'gone' };
      if (result === SNAPSHOT) return { type: 'snapshot' };
      if (result) throw result;
      if (epoch !== this.#epoch) return { type: 'snapshot' };
    }
    // Still behind after three reads: changes keep committing faster than they are read. Each one
    // read so far goes now; the ones announced during the last read have their wake-ups to come.
    const run = epoch === this.#epoch ? this.#cachedRun(after) : [];
    return run.length > 0 ? { type: 'deltas', epoch, revision: after + BigInt(run.length), deltas: run } : { type: 'snapshot' };
  }

  #fromCache(after: bigint): Delta[] | undefined {
    const run = this.#cachedRun(after);
    return after + BigInt(run.length) >= this.#known ? run : undefined;
  }

  /** The cached deltas right after `after`, up to the first gap or the latest known revision. */
  #cachedRun(after: bigint): Delta[] {
    const out: Delta[] = [];
    for (let r = after + 1n; r <= this.#known; r++) {
      const delta = this.#deltas.get(r);
      if (!delta) break;
      out.push(delta);
    }
    return out;
  }

  async #loadDeltas(after: bigint): Promise<void> {
    const knownBefore = this.#known;
    // Start after the cached run that follows `after`, if any.
    let from = after;
    while (this.#deltas.has(from + 1n)) from++;
    const loaded = await this.repo.consistent(async (repo) => {
      const state = await repo.state(this.locationId);
      if (!state) return undefined;
      if (from < state.logFloor || from > state.revision) return { state, deltas: null };
      const changes = await repo.changes(this.locationId, from, state.revision);
      const keys = [...new Set(changes.filter((c) => c.kind === 'peer').map((c) => c.key))];
      const peers = new Map(this.#open(await repo.peers(this.locationId, keys)).map((p) => [p.publicKey, p]));
      const needsInterface = changes.some((c) => c.kind === 'interface');
      const ifaceRow = await repo.interfaceOf(this.locationId);
      if (!ifaceRow) return undefined;
      const iface = needsInterface ? toInterface(ifaceRow, this.secrets.decrypt(ifaceRow.privateKeyEnc)) : undefined;
      const revisions: bigint[] = [];
      for (let r = from + 1n; r <= state.revision; r++) revisions.push(r);
      const firewallOps = await firewallDeltaOps(repo, this.locationId, changes, new Date());
      return { state, deltas: buildDeltas(revisions, changes, peers, iface, ifaceRow.keepalive, firewallOps) };
    });
    if (!loaded) throw GONE;
    this.#adopt(loaded.state, knownBefore);
    if (loaded.deltas === null) throw SNAPSHOT;
    for (const delta of loaded.deltas) this.#deltas.set(delta.revision, delta);
    for (const r of this.#deltas.keys()) {
      if (this.#deltas.size <= CACHE_REVISIONS) break;
      this.#deltas.delete(r);
    }
  }
}

const GONE = Symbol('gone');
const SNAPSHOT = Symbol('snapshot');
