import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { type ControlMessage, ControlErrorCode, type GatewayMessage, GatewayMessageSchema } from '@palisade/proto';
import { firewallAfterDelta, hasFirewallOps } from '#src/firewall/from-delta.js';
import { type FirewallState, firewallFromProto } from '#src/firewall/model.js';
import type { FirewallPort } from '#src/ports/firewall.js';
import type { WireGuardPort } from '#src/ports/wireguard.js';
import type { PeerCounters } from '#src/ports/wireguard.js';
import { applyActions } from '#src/reconcile/apply.js';
import { diff } from '#src/reconcile/diff.js';
import { applyDelta, desiredFromSnapshot } from '#src/reconcile/from-proto.js';
import type { InterfaceState } from '#src/reconcile/state.js';
import { changedCounters } from '#src/stats/changed-counters.js';
import { type GatewayIdentity, helloMessage, messageForEffect } from './messages.js';
import { type Effect, initialTrackerState, step, type TrackerEvent, type TrackerState } from './revision-tracker.js';

/**
 * The agent's core, independent of gRPC: control messages in, gateway messages out, WireGuard
 * through its port. The session calls it one message at a time (one apply at a time).
 *
 * - Snapshot: read the interface (this also catches drift), diff against the whole desired
 *   state, apply. Deltas: diff only the peers the delta names against the agent's model of the
 *   interface (the state after its last apply), so a one-device change does not read or compare
 *   10,000 peers.
 * - The firewall (nftables, when a FirewallPort is given) goes first in each message, so that a
 *   rule removed in the same message as a peer change never outlives it; the port diffs against
 *   what it applied, so a delta changes only the rules, sets and elements it names.
 * - After a failed apply the model is dropped: the next snapshot starts from a fresh read.
 * - Between streams nothing is undone: the interface keeps the last applied state (fail-open).
 */
export interface AgentOptions {
  wireguard: WireGuardPort;
  /** nftables; without it firewall messages are accepted and ignored. */
  firewall?: FirewallPort;
  identity: GatewayIdentity;
  now?: () => number;
  log?: (message: string) => void;
  /** Apply and nftables durations and reconnects for /metrics (src/metrics.ts). */
  metrics?: AgentMetrics;
}

export interface AgentMetrics {
  observeApply(kind: 'snapshot' | 'delta', ok: boolean, seconds: number): void;
  observeFirewall(ok: boolean, seconds: number): void;
  countReconnect(): void;
}

export interface HandleResult {
  messages: GatewayMessage[];
  /** Set when the server announced why it is closing the stream. */
  controlError?: ControlErrorCode;
}

export interface AgentStatus {
  connected: boolean;
  health: TrackerState['health'];
  appliedRevision: bigint;
  epoch: string;
  peerCount: number;
  lastError: string | null;
}

export function createAgent({ wireguard, firewall, identity, now = Date.now, log = () => {}, metrics }: AgentOptions) {
  let tracker = initialTrackerState();
  let desired: InterfaceState | null = null;
  let desiredFirewall: FirewallState | null = null;
  let model: InterfaceState | null = null;
  let statsBaseline = new Map<string, PeerCounters>();
  let lastError: string | null = null;
  /** The stream counts as connected once the server has answered on it, not when it is opened. */
  let heard = false;
  /** Bumped per stream, so a stats read that straddles a reconnect cannot skew the new baseline. */
  let stream = 0;
  const seconds = (since: number) => (performance.now() - since) / 1000;

  const toMessages = (effects: Effect[]) =>
    effects.flatMap((e) => {
      const m = messageForEffect(e, model?.peers.size ?? 0, wireguard.implementation());
      return m ? [m] : [];
    });

  function advance(event: TrackerEvent): Effect[] {
    const result = step(tracker, event);
    tracker = result.state;
    return result.effects;
  }

  async function applyTo(next: InterfaceState, base: InterfaceState, scope?: Parameters<typeof diff>[2]): Promise<void> {
    const actions = diff(base, next, scope);
    if (actions.length > 0) log(`applying ${actions.length} change(s) to ${wireguard.ifname}`);
    await wireguard.apply(actions);
    model = applyActions(base, actions);
    desired = next;
  }

  async function applyFirewall(next: FirewallState | null, verify: boolean): Promise<void> {
    if (!firewall || next === null) return;
    const began = performance.now();
    const applied = await firewall.apply(next, { verify }).then(
      (changed) => {
        metrics?.observeFirewall(true, seconds(began));
        return changed;
      },
      (e: unknown) => {
        metrics?.observeFirewall(false, seconds(began));
        throw e;
      },
    );
    if (applied) {
      log(
        next.managed
          ? `firewall ${firewall.table}: applied (${next.rules.size} rule(s))`
          : `firewall ${firewall.table}: removed (unmanaged)`,
      );
    }
    desiredFirewall = next;
  }

  /** Runs the apply an effect asks for and feeds the outcome back to the tracker. */
  async function performApply(effect: Effect, message: ControlMessage): Promise<Effect[]> {
    const kind = effect.type === 'apply-snapshot' ? 'snapshot' : 'delta';
    const began = performance.now();
    try {
      if (effect.type === 'apply-snapshot' && message.kind.case === 'snapshot') {
        const next = desiredFromSnapshot(message.kind.value);
        const nextFirewall = firewall ? firewallFromProto(message.kind.value.firewall) : null;
        await applyFirewall(nextFirewall, true);
        await applyTo(next, (await wireguard.read()).state);
      } else if (effect.type === 'apply-delta' && message.kind.case === 'delta') {
        const base = model ?? (await wireguard.read()).state;
        const delta = message.kind.value;
        const { desired: next, scope } = applyDelta(desired!, delta);
        if (firewall && hasFirewallOps(delta)) {
          if (desiredFirewall === null) throw new Error(`delta ${delta.revision}: no applied firewall to change`);
          await applyFirewall(firewallAfterDelta(desiredFirewall, delta), false);
        }
        await applyTo(next, base, scope);
      }
      lastError = null;
      metrics?.observeApply(kind, true, seconds(began));
      return advance({ type: 'applied' });
    } catch (e) {
      lastError = e instanceof Error ? e.message : String(e);
      metrics?.observeApply(kind, false, seconds(began));
      log(`apply failed: ${lastError}`);
      model = null;
      desired = null;
      desiredFirewall = null;
      return advance({ type: 'apply-failed', error: lastError });
    }
  }

  return {
    /** A new stream is open: the hello to send first. Stats start from a full report. */
    connected(): GatewayMessage[] {
      statsBaseline = new Map();
      if (stream > 0) metrics?.countReconnect();
      stream++;
      const effects = advance({ type: 'connected' });
      return effects
        .map((e) => (e.type === 'send-hello' ? helloMessage(identity, e, wireguard.implementation()) : undefined))
        .filter((m) => m !== undefined);
    },

    disconnected(): void {
      heard = false;
      advance({ type: 'disconnected' });
    },

    async handle(message: ControlMessage): Promise<HandleResult> {
      heard = true;
      const kind = message.kind;
      if (kind.case === 'error') {
        log(`control plane closes the stream: ${ControlErrorCode[kind.value.code]} ${kind.value.message}`);
        return { messages: [], controlError: kind.value.code };
      }
      if (kind.case === undefined) return { messages: [] }; // a newer server's message kind: ignore
      const event: TrackerEvent =
        kind.case === 'snapshot'
          ? { type: 'snapshot', epoch: kind.value.revisionEpoch, revision: kind.value.revision }
          : { type: 'delta', revision: kind.value.revision };
      const effects = advance(event);
      const out: Effect[] = [];
      for (const effect of effects) {
        if (effect.type === 'apply-snapshot' || effect.type === 'apply-delta') out.push(...(await performApply(effect, message)));
        else out.push(effect);
      }
      return { messages: toMessages(out) };
    },

    /** A stats report of the peers that changed since the last one on this stream, or null. */
    async collectStats(): Promise<GatewayMessage | null> {
      if (!wireguard.implementation()) return null;
      const started = stream;
      const { counters } = await wireguard.read();
      if (started !== stream) return null;
      const changed = changedCounters(statsBaseline, counters);
      statsBaseline = new Map(counters);
      if (changed.size === 0) return null;
      const peers = [...changed].map(([publicKey, c]) => ({
        publicKey,
        endpoint: c.endpoint ?? '',
        rxBytes: c.rxBytes,
        txBytes: c.txBytes,
        latestHandshake: c.latestHandshake > 0 ? timestampFromMs(c.latestHandshake * 1000) : undefined,
      }));
      return create(GatewayMessageSchema, { kind: { case: 'statsReport', value: { collectedAt: timestampFromMs(now()), peers } } });
    },

    status(): AgentStatus {
      return {
        connected: tracker.connected && heard,
        health: tracker.health,
        appliedRevision: tracker.applied,
        epoch: tracker.epoch,
        peerCount: model?.peers.size ?? 0,
        lastError,
      };
    },
  };
}

export type Agent = ReturnType<typeof createAgent>;
