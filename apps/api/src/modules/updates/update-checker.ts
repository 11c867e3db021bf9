import type { UpdateInfo } from '@palisade/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type EgressPolicy, EgressRequestError, sendOutgoing } from '#src/lib/egress/index.js';
import { FeedError, parseFeed, pickUpdate } from './feed.js';

export interface UpdateCheckerOptions {
  /** Off: no request is ever made and there is never an update. */
  enabled: boolean;
  feedUrl: string;
  /** The running version (`GET /info`). */
  currentVersion: string;
  /** The admin's egress allow-list, read before each request (the SSRF guard applies here too). */
  egressPolicy: () => Promise<EgressPolicy>;
  log: FastifyBaseLogger;
  timeoutMs?: number;
}

const TIMEOUT_MS = 15_000;
/** The feed is small; a longer body is cut here and then fails to parse (a bad feed). */
const MAX_FEED_BYTES = 256 * 1024;

/**
 * The newest release this instance could move to, as last read from the release feed
 * (docs/updates.md). Kept in this process's memory: every replica reads the feed itself on the
 * same schedule (updates.job.ts), so replicas agree within one interval and a restarted process
 * knows again shortly after start. `GET /updates` only reads `latest()`: a request never waits on
 * the network. A failed check (network, HTTP status, bad feed) leaves no update and logs one
 * warning per streak of failures; the next success logs that the feed is readable again.
 */
export class UpdateChecker {
  readonly #options: UpdateCheckerOptions;
  #latest: UpdateInfo | undefined;
  #failing = false;
  #running: Promise<void> | undefined;

  constructor(options: UpdateCheckerOptions) {
    this.#options = options;
  }

  get enabled(): boolean {
    return this.#options.enabled;
  }

  latest(): UpdateInfo | undefined {
    return this.#latest;
  }

  /** Reads the feed once; a check already running is joined, not doubled. Never throws. */
  check(): Promise<void> {
    if (!this.#options.enabled) return Promise.resolve();
    this.#running ??= this.#check().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #check(): Promise<void> {
    const { feedUrl, currentVersion, log } = this.#options;
    try {
      const res = await sendOutgoing({
        url: feedUrl,
        method: 'GET',
        body: '',
        headers: { accept: 'application/json' },
        timeoutMs: this.#options.timeoutMs ?? TIMEOUT_MS,
        policy: await this.#options.egressPolicy(),
        maxResponseBytes: MAX_FEED_BYTES,
      });
      if (res.status !== 200) throw new FeedError(`the feed answered HTTP ${res.status}`);
      this.#latest = pickUpdate(parseFeed(res.excerpt), currentVersion);
      if (this.#failing) log.info({ feedUrl }, 'update feed readable again');
      this.#failing = false;
    } catch (err) {
      this.#latest = undefined;
      if (!this.#failing) {
        const reason = err instanceof FeedError || err instanceof EgressRequestError ? err.message : String(err);
        log.warn({ feedUrl, reason }, 'update check failed; no update is announced until the feed can be read');
      }
      this.#failing = true;
    }
  }
}
