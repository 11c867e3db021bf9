import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AgentMetrics, AgentStatus } from './control/agent.js';

/** Every metric the agent registers (docs/gateways.md, docs/grafana/palisade.json). */
export const AGENT_METRIC_NAMES = [
  'palisade_agent_peers',
  'palisade_agent_connected',
  'palisade_agent_acked_revision',
  'palisade_agent_apply_duration_seconds',
  'palisade_agent_nft_duration_seconds',
  'palisade_agent_reconnects_total',
] as const;

/**
 * The agent's Prometheus metrics, served at `/metrics` on its health port. Labels are fixed
 * words (`kind`, `result`); peer keys and addresses never appear.
 */
export class GatewayMetrics implements AgentMetrics {
  readonly registry = new Registry();
  readonly #apply: Histogram<'kind' | 'result'>;
  readonly #nft: Histogram<'result'>;
  readonly #reconnects: Counter;
  #status: (() => AgentStatus) | undefined;

  constructor() {
    const registers = [this.registry];
    const status = () => this.#status?.();
    collectDefaultMetrics({ register: this.registry, prefix: 'palisade_agent_' });
    new Gauge({
      name: 'palisade_agent_peers',
      help: 'WireGuard peers on the interface after the last apply.',
      registers,
      collect() {
        const s = status();
        if (s) this.set(s.peerCount);
      },
    });
    new Gauge({
      name: 'palisade_agent_connected',
      help: '1 while the control stream is up and the server has answered on it.',
      registers,
      collect() {
        const s = status();
        if (s) this.set(s.connected ? 1 : 0);
      },
    });
    new Gauge({
      name: 'palisade_agent_acked_revision',
      help: 'The last revision the agent applied and acknowledged (0 before the first apply).',
      registers,
      collect() {
        const s = status();
        if (s) this.set(Number(s.appliedRevision));
      },
    });
    this.#apply = new Histogram({
      name: 'palisade_agent_apply_duration_seconds',
      help: 'Duration of applying one snapshot or delta (firewall and WireGuard), by kind and result.',
      labelNames: ['kind', 'result'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers,
    });
    this.#nft = new Histogram({
      name: 'palisade_agent_nft_duration_seconds',
      help: 'Duration of one nftables apply of the location ACL (locations with ACL only), by result.',
      labelNames: ['result'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.#reconnects = new Counter({
      name: 'palisade_agent_reconnects_total',
      help: 'Control streams opened after the first one (reconnects to the control plane).',
      registers,
    });
    this.#reconnects.inc(0);
  }

  /** Where the gauges read peers, connection and revision (the agent is created with these metrics). */
  watch(status: () => AgentStatus): void {
    this.#status = status;
  }

  observeApply(kind: 'snapshot' | 'delta', ok: boolean, seconds: number): void {
    this.#apply.observe({ kind, result: ok ? 'ok' : 'error' }, seconds);
  }

  observeFirewall(ok: boolean, seconds: number): void {
    this.#nft.observe({ result: ok ? 'ok' : 'error' }, seconds);
  }

  countReconnect(): void {
    this.#reconnects.inc();
  }
}
