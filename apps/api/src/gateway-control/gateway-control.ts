import { readFile } from 'node:fs/promises';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { Code, ConnectError, type ConnectRouter, createContextKey, createContextValues, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { ControlErrorCode, type ControlMessage, type GatewayMessage, GatewayService } from '@palisade/proto';
import type { DatabaseHandle } from '#src/db/client.js';
import { type SecretBox, sha256 } from '#src/lib/crypto.js';
import { ControlRepo, GATEWAY_CHANNEL } from './control.repo.js';
import { LocationFeed } from './location-feed.js';
import { errorMessage, helloInfo } from './protocol.js';
import { GatewaySession } from './session.js';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import { StatsWriter } from './stats-writer.js';

/**
 * The gRPC control plane of the gateways (ARCHITECTURE §5, ADR-002): `GatewayService.Connect` on
 * its own HTTP/2 port, authenticated by the location token (sha256 looked up in
 * gateway_location_state). Replicas learn of changes through NOTIFY on `palisade_gateway`
 * (written by the change-capture triggers and by the gateways module):
 *   rev:<location>:<revision>   wake the location's streams (they read the deltas)
 *   gone:<location>             the location was deleted
 *   token:<location>            the token was rotated: streams holding another token are cut off
 *   replace:<gateway>:<stream>  a newer stream took over this gateway
 *   gwdel:<gateway>             an admin deleted the gateway
 */
export interface GatewayControlOptions {
  database: DatabaseHandle;
  secrets: SecretBox;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
  port: number;
  host: string;
  tls?: { certFile: string; keyFile: string } | undefined;
  statsRetentionDays: number;
  /** Change-log entries older than this are pruned (gateways further behind get a snapshot). */
  changeLogHours?: number;
  helloTimeoutMs?: number;
  stats?: { maxRows: number; maxDelayMs: number };
}

const HEARTBEAT_MS = 30_000;
/** The remote address of a stream's connection (the gateway's IP in the activity log). */
const PEER_ADDRESS = createContextKey<string | undefined>(undefined, { description: 'peer address' });
const PURGE_MS = 3600_000;

export class GatewayControl {
  readonly repo: ControlRepo;
  readonly stats: StatsWriter;
  #server: http2.Http2Server | undefined;
  #sockets = new Set<http2.ServerHttp2Session>();
  #sessions = new Map<number, Set<GatewaySession>>();
  #feeds = new Map<number, LocationFeed>();
  #unlisten: (() => Promise<void>) | undefined;
  #timers: NodeJS.Timeout[] = [];
  #stopping = false;

  constructor(private readonly options: GatewayControlOptions) {
    this.repo = new ControlRepo(options.database.db);
    const stats = options.stats ?? { maxRows: 5000, maxDelayMs: 1000 };
    this.stats = new StatsWriter((rows) => this.repo.insertStats(rows), {
      ...stats,
      onError: (e) => options.log.warn({ err: (e as Error).message }, 'gateway stats write failed'),
    });
  }

  /** The bound port (after `start`). */
  get port(): number {
    return (this.#server?.address() as AddressInfo | null)?.port ?? 0;
  }

  get sessionCount(): number {
    let n = 0;
    for (const set of this.#sessions.values()) n += set.size;
    return n;
  }

  /**
   * Connected gateways per location and the largest applied-revision lag among them (the
   * location's latest known revision minus what the gateway is known to have applied); read by /metrics.
   */
  connectedGateways(): { locationId: number; gateways: number; maxRevisionLag: number }[] {
    return [...this.#sessions].map(([locationId, set]) => {
      const known = this.#feeds.get(locationId)?.knownRevision ?? 0n;
      let lag = 0n;
      for (const session of set) {
        const behind = known - session.confirmedRevision;
        if (behind > lag) lag = behind;
      }
      return { locationId, gateways: set.size, maxRevisionLag: Number(lag) };
    });
  }

  async start(): Promise<void> {
    const listen = this.options.database.listen;
    if (!listen) throw new Error('the database handle cannot LISTEN');
    this.#unlisten = await listen.call(
      this.options.database,
      GATEWAY_CHANNEL,
      (payload) => this.#dispatch(payload),
      () => this.#resync(),
    );
    const handler = connectNodeAdapter({
      contextValues: (req) => createContextValues().set(PEER_ADDRESS, req.socket.remoteAddress),
      routes: (router: ConnectRouter) =>
        router.service(GatewayService, { connect: (requests, ctx) => this.#serve(requests, ctx) }, { readMaxBytes: 64 * 1024 * 1024 }),
    });
    const tls = this.options.tls;
    const server = tls
      ? http2.createSecureServer({ cert: await readFile(tls.certFile), key: await readFile(tls.keyFile) }, handler)
      : http2.createServer(handler);
    server.on('session', (s) => {
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    this.#every(HEARTBEAT_MS, () => this.repo.heartbeat(this.#streamIds()));
    this.#every(PURGE_MS, () => this.purge());
    this.options.log.info({ port: this.port, tls: Boolean(tls) }, 'gateway gRPC server listening');
  }

  /** Retention of stats and the change log (one replica at a time, advisory lock). */
  purge(): Promise<boolean> {
    return this.repo.purge(this.options.statsRetentionDays, this.options.changeLogHours ?? 24, ADVISORY_LOCKS.gatewayPurge);
  }

  /** Graceful: every stream hears SERVER_SHUTDOWN (agents reconnect at once, to another replica). */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const t of this.#timers) clearInterval(t);
    for (const set of this.#sessions.values())
      for (const s of set) s.terminate(ControlErrorCode.SERVER_SHUTDOWN, 'server shutting down', Code.Unavailable);
    const server = this.#server;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of this.#sockets) s.close();
      const force = setTimeout(() => {
        for (const s of this.#sockets) s.destroy();
      }, 2000);
      await closed;
      clearTimeout(force);
    }
    await this.stats.flush();
    await this.#unlisten?.();
  }

  #every(ms: number, task: () => Promise<unknown>): void {
    const timer = setInterval(() => {
      task().catch((e: unknown) => this.options.log.warn({ err: (e as Error).message }, 'gateway control job failed'));
    }, ms);
    timer.unref();
    this.#timers.push(timer);
  }

  #streamIds(): string[] {
    return [...this.#sessions.values()].flatMap((set) => [...set].map((s) => s.streamId));
  }

  #feed(locationId: number): LocationFeed {
    let feed = this.#feeds.get(locationId);
    if (!feed) {
      feed = new LocationFeed(locationId, this.repo, this.options.secrets);
      this.#feeds.set(locationId, feed);
    }
    return feed;
  }

  #dispatch(payload: string): void {
    const [kind, a, b] = payload.split(':');
    const id = Number(a);
    if (kind === 'rev') {
      this.#feeds.get(id)?.noteRevision(BigInt(b ?? '0'));
      for (const s of this.#sessions.get(id) ?? []) s.wake();
    } else if (kind === 'gone') {
      for (const s of this.#sessions.get(id) ?? []) s.terminate(ControlErrorCode.LOCATION_GONE, 'location deleted', Code.NotFound);
    } else if (kind === 'token') {
      void this.#checkTokens([id]);
    } else if (kind === 'replace' || kind === 'gwdel') {
      for (const set of this.#sessions.values())
        for (const s of set) {
          if (s.gatewayRowId !== id) continue;
          if (kind === 'gwdel') s.terminate(ControlErrorCode.UNSPECIFIED, 'gateway deleted by an administrator', Code.PermissionDenied);
          else if (s.streamId !== b) s.terminate(ControlErrorCode.REPLACED, 'replaced by a newer stream of this gateway', Code.Aborted);
        }
    }
  }

  /** After a lost LISTEN connection: notifications may have been missed. */
  #resync(): void {
    void this.#checkTokens([...this.#sessions.keys()]);
    for (const set of this.#sessions.values()) for (const s of set) s.wake();
  }

  async #checkTokens(locationIds: number[]): Promise<void> {
    if (locationIds.length === 0) return;
    const current = await this.repo.tokenHashes(locationIds).catch(() => undefined);
    if (!current) return;
    for (const id of locationIds)
      for (const s of this.#sessions.get(id) ?? []) {
        if (current.get(id) !== s.tokenHash) s.terminate(ControlErrorCode.TOKEN_REVOKED, 'gateway token revoked', Code.Unauthenticated);
      }
  }

  async *#serve(requests: AsyncIterable<GatewayMessage>, ctx: HandlerContext): AsyncGenerator<ControlMessage> {
    if (this.#stopping) throw new ConnectError('server shutting down', Code.Unavailable);
    const token = /^Bearer\s+(\S{1,512})$/i.exec(ctx.requestHeader.get('authorization') ?? '')?.[1];
    const tokenHash = token ? sha256(token) : undefined;
    const locationId = tokenHash ? await this.repo.locationForToken(tokenHash) : undefined;
    if (!tokenHash || locationId === undefined) throw new ConnectError('missing or invalid gateway token', Code.Unauthenticated);

    const it = requests[Symbol.asyncIterator]();
    const first = await this.#firstMessage(it, ctx.signal);
    const hello = first?.kind.case === 'hello' ? first.kind.value : undefined;
    const info = hello && helloInfo(hello);
    if (!hello || !info) {
      yield errorMessage(ControlErrorCode.PROTOCOL_VIOLATION, 'the first message must be a Hello with a gateway_id');
      throw new ConnectError('the first message must be a Hello with a gateway_id', Code.InvalidArgument);
    }
    const session = new GatewaySession(
      locationId,
      tokenHash,
      info,
      { epoch: hello.appliedRevisionEpoch, revision: hello.appliedRevision },
      {
        repo: this.repo,
        feed: this.#feed(locationId),
        ingestStats: (rows) => this.stats.push(rows),
        log: (message, extra) => this.options.log.warn(extra ?? {}, message),
        peer: ctx.values.get(PEER_ADDRESS),
      },
    );
    this.#register(session);
    const abort = () => session.outbox.close();
    ctx.signal.addEventListener('abort', abort);
    try {
      await session.open();
      await this.repo.notify(`replace:${session.gatewayRowId}:${session.streamId}`);
      await this.#checkTokens([locationId]); // a rotation that committed while this stream opened
      void this.#read(it, session);
      for await (const message of session.outbox) yield message;
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      this.#unregister(session);
      await session.close();
    }
  }

  async #firstMessage(it: AsyncIterator<GatewayMessage>, signal: AbortSignal): Promise<GatewayMessage | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.options.helloTimeoutMs ?? 30_000);
      signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    try {
      const next = await Promise.race([it.next(), timeout]);
      return next && !next.done ? next.value : undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async #read(it: AsyncIterator<GatewayMessage>, session: GatewaySession): Promise<void> {
    try {
      for (;;) {
        const next = await it.next();
        if (next.done || session.outbox.closed) break;
        await session.receive(next.value);
      }
      session.outbox.close();
    } catch (e) {
      if (!session.outbox.closed) this.options.log.warn({ err: (e as Error).message }, 'gateway stream read failed');
      session.outbox.close();
    }
  }

  #register(session: GatewaySession): void {
    let set = this.#sessions.get(session.locationId);
    if (!set) {
      set = new Set();
      this.#sessions.set(session.locationId, set);
    }
    for (const other of set) {
      if (other.key === session.key) other.terminate(ControlErrorCode.REPLACED, 'replaced by a newer stream of this gateway', Code.Aborted);
    }
    set.add(session);
  }

  #unregister(session: GatewaySession): void {
    const set = this.#sessions.get(session.locationId);
    set?.delete(session);
    if (set?.size === 0) {
      this.#sessions.delete(session.locationId);
      this.#feeds.delete(session.locationId);
    }
  }
}
