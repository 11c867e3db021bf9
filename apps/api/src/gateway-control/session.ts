import { randomUUID } from 'node:crypto';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { ControlErrorCode, type ControlMessage, type GatewayMessage, GatewayState, type StatsReport } from '@palisade/proto';
import type { ControlRepo, HelloInfo, StatsRow } from './control.repo.js';
import type { LocationFeed } from './location-feed.js';
import { Outbox } from './outbox.js';
import { acceptAck, deltaMessage, errorMessage, implementationName, planStart } from './protocol.js';

/**
 * One gateway's stream after its hello: sends the initial state (nothing, deltas or a snapshot;
 * protocol.ts), then follows the location (`wake()` after each notified revision), and handles
 * what the gateway sends (acks, snapshot requests, stats, status). Sends are serialised: a stream
 * always receives revisions in order. `terminate` ends the stream with a ControlError first.
 */
export interface SessionDeps {
  repo: ControlRepo;
  feed: LocationFeed;
  ingestStats: (rows: StatsRow[]) => void;
  log: (message: string, extra?: Record<string, unknown>) => void;
  /** The address the stream came from (recorded with the gateway's connect and disconnect events). */
  peer?: string | undefined;
}

const STATES: Record<number, string> = {
  [GatewayState.SYNCED]: 'synced',
  [GatewayState.RESYNCING]: 'resyncing',
  [GatewayState.DEGRADED]: 'degraded',
};

/**
 * Messages one stream may have queued and not yet sent: a gateway that stops reading (its HTTP/2
 * window full) holds at most this many in memory; the rest is sent from the feed (or as a
 * snapshot) once it reads again.
 */
export const MAX_QUEUED = 256;

export class GatewaySession {
  readonly streamId = randomUUID();
  readonly outbox = new Outbox<ControlMessage>();
  gatewayRowId = 0;
  /** What this stream has sent (or the gateway had applied, until the start). */
  #epoch: string;
  #sent: bigint;
  #acked = 0n;
  /** What this gateway is known to have applied (read by /metrics): its hello's revision when that needed no snapshot, then each ack. */
  #confirmed = 0n;
  /** The start (which reads the location's state) is queued: wake-ups count from here on. */
  #started = false;
  #chain: Promise<void> = Promise.resolve();
  #deviceIds = new Map<string, number>();
  /** Catching up stopped at MAX_QUEUED: resume when the gateway has read the queue. */
  #held = false;
  /** Why the server ended the stream (recorded with the disconnect); unset when the gateway left. */
  #endReason: string | undefined;

  constructor(
    readonly locationId: number,
    readonly tokenHash: string,
    readonly hello: HelloInfo,
    private readonly applied: { epoch: string; revision: bigint },
    private readonly deps: SessionDeps,
  ) {
    this.#epoch = applied.epoch;
    this.#sent = applied.revision;
  }

  /** The revision this gateway is known to have applied (0 while a snapshot it needs is unacknowledged). */
  get confirmedRevision(): bigint {
    return this.#confirmed;
  }

  get key(): string {
    return `${this.locationId}:${this.hello.gatewayId}`;
  }

  async open(): Promise<void> {
    this.gatewayRowId = await this.deps.repo.connectGateway(this.locationId, this.hello, this.streamId, this.deps.peer);
    this.outbox.onTake = () => {
      if (this.#held && this.outbox.size === 0) {
        this.#held = false;
        this.#run(() => this.#catchUp());
      }
    };
    this.#started = true;
    this.#run(() => this.#start());
  }

  /** The location changed (or may have): send what this gateway lacks. */
  wake(): void {
    for (const [key, id] of this.#deviceIds) if (id < 0) this.#deviceIds.delete(key);
    // Before the start is queued (the stream is registered while its hello is recorded), the
    // start's own state read comes after this notification's commit and covers it. Catching up
    // now would run ahead of the start and answer a gateway that is merely behind with a snapshot.
    if (!this.#started) return;
    this.#run(() => this.#catchUp());
  }

  terminate(code: ControlErrorCode, message: string, status: Code): void {
    if (this.outbox.closed) return;
    this.#endReason = message;
    this.outbox.push(errorMessage(code, message));
    this.outbox.close(new ConnectError(message, status));
  }

  async close(): Promise<void> {
    this.outbox.close();
    await this.deps.repo
      .disconnectGateway(this.gatewayRowId, this.streamId, this.hello, this.deps.peer, this.#endReason)
      .catch(() => undefined);
  }

  #run(step: () => Promise<void>): void {
    this.#chain = this.#chain.then(step).catch((e: unknown) => {
      this.deps.log('gateway stream failed', { location: this.locationId, gateway: this.hello.gatewayId, err: (e as Error).message });
      this.outbox.close(new ConnectError('internal error', Code.Internal));
    });
  }

  async #start(): Promise<void> {
    const state = await this.deps.repo.state(this.locationId);
    if (!state) return this.terminate(ControlErrorCode.LOCATION_GONE, 'location deleted', Code.NotFound);
    this.deps.feed.noteRevision(state.revision);
    const plan = planStart({ epoch: this.applied.epoch, applied: this.applied.revision }, state);
    if (plan.type === 'snapshot') return this.#sendSnapshot();
    this.#confirmed = this.applied.revision;
    this.#acked = this.applied.revision;
    // The hello's revision is an ack: store it. The gateway's last ack may have gone to a process
    // that died before storing it; without this the gateway looked behind until the next change.
    await this.deps.repo.acknowledge(this.gatewayRowId, this.applied.epoch, this.applied.revision);
    return this.#catchUp();
  }

  async #sendSnapshot(): Promise<void> {
    const snapshot = await this.deps.feed.snapshot();
    if (!snapshot) return this.terminate(ControlErrorCode.LOCATION_GONE, 'location deleted', Code.NotFound);
    this.outbox.push(snapshot.message);
    this.#epoch = snapshot.epoch;
    this.#sent = snapshot.revision;
    this.#acked = 0n;
    this.#confirmed = 0n;
    return this.#catchUp();
  }

  async #catchUp(): Promise<void> {
    if (this.outbox.closed) return;
    if (this.outbox.size >= MAX_QUEUED) {
      this.#held = true;
      return;
    }
    const result = await this.deps.feed.catchUp(this.#epoch, this.#sent);
    if (result.type === 'gone') return this.terminate(ControlErrorCode.LOCATION_GONE, 'location deleted', Code.NotFound);
    if (result.type === 'snapshot') return this.#sendSnapshot();
    for (const delta of result.deltas) {
      if (delta.revision <= this.#sent) continue;
      if (this.outbox.size >= MAX_QUEUED) {
        this.#held = true;
        return;
      }
      this.outbox.push(deltaMessage(delta));
      this.#sent = delta.revision;
    }
  }

  /** A message from the gateway (after the hello). */
  async receive(message: GatewayMessage): Promise<void> {
    const kind = message.kind;
    switch (kind.case) {
      case 'ack': {
        const revision = acceptAck(
          { epoch: kind.value.revisionEpoch, revision: kind.value.revision },
          { epoch: this.#epoch, sent: this.#sent, acked: this.#acked },
        );
        if (revision === undefined) return;
        this.#acked = revision;
        this.#confirmed = revision;
        await this.deps.repo.acknowledge(this.gatewayRowId, this.#epoch, revision);
        return;
      }
      case 'snapshotRequest':
        this.#run(() => this.#sendSnapshot());
        return;
      case 'statsReport':
        await this.#ingest(kind.value);
        return;
      case 'status':
        await this.deps.repo.reportStatus(
          this.gatewayRowId,
          STATES[kind.value.state] ?? 'unknown',
          kind.value.message.slice(0, 1000) || null,
          kind.value.peerCount,
          implementationName(kind.value.wireguardImplementation),
        );
        return;
      case 'hello':
        this.terminate(ControlErrorCode.PROTOCOL_VIOLATION, 'a second Hello on one stream', Code.InvalidArgument);
        return;
      default:
        return; // a newer agent's message kind: ignore
    }
  }

  async #ingest(report: StatsReport): Promise<void> {
    const collectedAt = report.collectedAt ? timestampDate(report.collectedAt) : new Date();
    const unknown = report.peers.map((p) => p.publicKey).filter((k) => !this.#deviceIds.has(k));
    if (unknown.length > 0) {
      const found = await this.deps.repo.deviceIdsByKey(this.locationId, [...new Set(unknown)]);
      // Misses are remembered until the location changes (a key on the interface that is no device).
      for (const key of unknown) this.#deviceIds.set(key, found.get(key) ?? -1);
    }
    const rows: StatsRow[] = [];
    for (const peer of report.peers) {
      const deviceId = this.#deviceIds.get(peer.publicKey);
      if (deviceId === undefined || deviceId < 0) continue;
      rows.push({
        locationId: this.locationId,
        deviceId,
        gatewayId: this.gatewayRowId,
        collectedAt,
        upload: Number(peer.rxBytes),
        download: Number(peer.txBytes),
        latestHandshake: peer.latestHandshake ? timestampDate(peer.latestHandshake) : null,
        endpoint: peer.endpoint.slice(0, 100) || null,
      });
    }
    this.deps.ingestStats(rows);
  }
}
