import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '#src/db/client.js';
import type { GatewayControl } from '#src/gateway-control/gateway-control.js';
import { EventsRepo } from '#src/modules/events/events.repo.js';
import { LocationGauge, RequestSeriesSet } from './text-series.js';

/** The outcome of one sign-in attempt (modules/auth), as counted by `palisade_logins_total`. */
export type LoginOutcome = 'success' | 'mfa_pending' | 'failure' | 'locked_out';

/** Every metric name the API registers; the Grafana dashboard test checks its expressions against these. */
export const API_METRIC_NAMES = [
  'palisade_http_requests_total',
  'palisade_http_request_duration_seconds',
  'palisade_db_pool_connections',
  'palisade_db_pool_waiting',
  'palisade_event_outbox_lag',
  'palisade_job_round_duration_seconds',
  'palisade_job_errors_total',
  'palisade_gateways_connected',
  'palisade_gateway_revision_lag',
  'palisade_logins_total',
  'palisade_login_lockouts_total',
] as const;

const BLANK_LINE = Buffer.from('\n');

/** How long a computed outbox lag is reused: a scrape every few seconds costs one count at most. */
export const OUTBOX_LAG_CACHE_MS = 5000;
/**
 * How long a scrape waits for the outbox count. Past it the scrape answers with the last counted
 * value (none before the first count): a saturated pool or a slow database must not hold /metrics,
 * which is when an operator needs it. The count goes on and is used by the next scrape.
 */
export const OUTBOX_LAG_DEADLINE_MS = 1000;

export interface ApiMetricsSources {
  database: DatabaseHandle;
  gatewayControl?: GatewayControl | undefined;
  /** How long a counted outbox lag is reused (OUTBOX_LAG_CACHE_MS); the benchmark sets 0 to count at every scrape. */
  outboxLagCacheMs?: number | undefined;
}

/**
 * The API's Prometheus metrics in a registry of their own (one per app: several apps in one test
 * process do not share series). Labels carry route templates, status codes, job names and
 * location ids only, never a URL, a user name or anything a client typed.
 */
export class ApiMetrics {
  /** prom-client's registry: process, pool, outbox, job and login metrics. */
  readonly registry = new Registry();
  /** Request and gateway series, written by text-series.ts (the bulk of a scrape, cheaper that way). */
  readonly #requests = new RequestSeriesSet(
    'palisade_http_requests_total',
    'HTTP requests answered, by method, route template and status code.',
    'palisade_http_request_duration_seconds',
    'HTTP request latency in seconds, by method, route template and status code.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  );
  readonly #gatewaysConnected = new LocationGauge('palisade_gateways_connected', 'Gateways connected to this API process, by location id.');
  readonly #revisionLag = new LocationGauge(
    'palisade_gateway_revision_lag',
    "Largest lag, in revisions, between a location's latest revision and what its connected gateways are known to have applied.",
  );
  readonly #gatewayControl: GatewayControl | undefined;
  readonly #jobDuration: Histogram<'job'>;
  readonly #jobErrors: Counter<'job'>;
  readonly #logins: Counter<'result'>;
  readonly #lockouts: Counter;
  #lag: { value: number; at: number } | undefined;
  #lagCounting: Promise<number> | undefined;
  readonly #lagCacheMs: number;

  constructor(sources: ApiMetricsSources) {
    const registers = [this.registry];
    this.#lagCacheMs = sources.outboxLagCacheMs ?? OUTBOX_LAG_CACHE_MS;
    collectDefaultMetrics({ register: this.registry, prefix: 'palisade_api_' });
    const { database, gatewayControl } = sources;
    this.#gatewayControl = gatewayControl;
    new Gauge({
      name: 'palisade_db_pool_connections',
      help: 'PostgreSQL pool connections by state (in_use, idle); absent on the embedded database.',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = database.poolStats?.();
        if (!stats) return;
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
      },
    });
    new Gauge({
      name: 'palisade_db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL pool connection; absent on the embedded database.',
      registers,
      collect() {
        const stats = database.poolStats?.();
        if (stats) this.set(stats.waiting);
      },
    });
    const events = new EventsRepo(database.db);
    const lagOf = () => this.#outboxLag(events);
    new Gauge({
      name: 'palisade_event_outbox_lag',
      help: "Events after the slowest consumer's cursor (webhooks, activity-log streams); 0 without consumers.",
      registers,
      async collect() {
        // A database that does not answer must not fail the whole scrape: the series goes stale.
        const lag = await lagOf().catch(() => undefined);
        if (lag !== undefined) this.set(lag);
      },
    });
    this.#jobDuration = new Histogram({
      name: 'palisade_job_round_duration_seconds',
      help: 'Duration of one round or batch of work of a background job (periodic rounds, webhook fan-out and delivery batches, activity-log stream batches, mail batches), by job.',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    });
    this.#jobErrors = new Counter({
      name: 'palisade_job_errors_total',
      help: 'Errors a background job logged (a failed round, delivery or purge step), by job.',
      labelNames: ['job'],
      registers,
    });
    this.#logins = new Counter({
      name: 'palisade_logins_total',
      help: 'Password sign-in attempts by result: success, mfa_pending (password right, second step due), failure, locked_out.',
      labelNames: ['result'],
      registers,
    });
    for (const result of ['success', 'mfa_pending', 'failure', 'locked_out']) this.#logins.inc({ result }, 0);
    this.#lockouts = new Counter({
      name: 'palisade_login_lockouts_total',
      help: 'Sign-in attempts refused because the account or the client address is locked out.',
      registers,
    });
    this.#lockouts.inc(0);
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe(method, route, status, seconds);
  }

  /** The content type of `exposition()`: the Prometheus text format 0.0.4. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The whole scrape, encoded: prom-client's registry, then the request and gateway series. */
  async exposition(): Promise<Buffer> {
    const registered = await this.registry.metrics();
    const locations = this.#gatewayControl?.connectedGateways() ?? [];
    return Buffer.concat([
      Buffer.from(`${registered}\n`),
      ...this.#requests.pieces(),
      BLANK_LINE,
      this.#gatewaysConnected.piece(locations.map((l) => [l.locationId, l.gateways] as const)),
      BLANK_LINE,
      this.#revisionLag.piece(locations.map((l) => [l.locationId, l.maxRevisionLag] as const)),
    ]);
  }

  /** Every metric this app exposes and its type (the Grafana dashboard test checks names against it). */
  metricTypes(): Map<string, string> {
    const types = new Map(this.registry.getMetricsAsArray().map((m) => [m.name, String(m.type)] as [string, string]));
    types.set('palisade_http_requests_total', 'counter');
    types.set('palisade_http_request_duration_seconds', 'histogram');
    types.set('palisade_gateways_connected', 'gauge');
    types.set('palisade_gateway_revision_lag', 'gauge');
    return types;
  }

  observeJobRound(job: string, seconds: number): void {
    this.#jobDuration.observe({ job }, seconds);
  }

  countJobError(job: string): void {
    this.#jobErrors.inc({ job });
  }

  countLogin(outcome: LoginOutcome): void {
    this.#logins.inc({ result: outcome });
    if (outcome === 'locked_out') this.#lockouts.inc();
  }

  async #outboxLag(events: EventsRepo): Promise<number | undefined> {
    if (this.#lag && Date.now() - this.#lag.at < this.#lagCacheMs) return this.#lag.value;
    // One count at a time, however many scrapes arrive while it runs.
    this.#lagCounting ??= this.#countLag(events).finally(() => {
      this.#lagCounting = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), OUTBOX_LAG_DEADLINE_MS);
    });
    try {
      return (await Promise.race([this.#lagCounting, late])) ?? this.#lag?.value;
    } finally {
      clearTimeout(timer);
    }
  }

  async #countLag(events: EventsRepo): Promise<number> {
    const cursor = await events.oldestConsumerCursor();
    const value = cursor ? await events.countAfter(cursor) : 0;
    this.#lag = { value, at: Date.now() };
    return value;
  }
}
