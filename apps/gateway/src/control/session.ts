import { setTimeout as sleep } from 'node:timers/promises';
import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { ControlErrorCode, type GatewayMessage, GatewayService } from '@palisade/proto';
import type { Agent } from './agent.js';
import { type BackoffPolicy, backoffDelay, RECONNECT, SLOW_RECONNECT } from './backoff.js';
import { createOutbox } from './outbox.js';

/**
 * The dial-out loop: open `GatewayService.Connect` with the location token, say hello, feed every
 * control message to the agent (one at a time) and send what it answers; send stats every
 * interval. When the stream ends or fails, the interface keeps its state (fail-open) and the loop
 * reconnects after a backoff delay. Runs until `signal` aborts.
 */
export interface SessionOptions {
  agent: Agent;
  transport: Transport;
  token: string;
  statsIntervalMs: number;
  signal: AbortSignal;
  log?: (message: string) => void;
  /** For tests: the delay before reconnect attempt `attempt` after an error. */
  delay?: (attempt: number, policy: BackoffPolicy) => number;
}

/** Errors an operator has to fix: retry, but slowly. */
const SLOW_CODES = new Set([ControlErrorCode.TOKEN_REVOKED, ControlErrorCode.LOCATION_GONE]);
const SLOW_STATUSES = new Set([Code.Unauthenticated, Code.PermissionDenied]);

interface StreamOutcome {
  progressed: boolean;
  policy: BackoffPolicy;
  immediate: boolean;
}

async function runStream(options: SessionOptions): Promise<StreamOutcome> {
  const { agent, transport, token, signal, log = () => {} } = options;
  const client = createClient(GatewayService, transport);
  const outbox = createOutbox<GatewayMessage>();
  const outcome: StreamOutcome = { progressed: false, policy: RECONNECT, immediate: false };
  outbox.push(...agent.connected());
  // One stats read at a time: with many peers on a slow host a read may outlast a short interval.
  let collecting = false;
  const timer = setInterval(() => {
    if (collecting) return;
    collecting = true;
    agent
      .collectStats()
      .then(
        (m) => m && outbox.push(m),
        (e: unknown) => log(`stats: ${(e as Error).message}`),
      )
      .finally(() => {
        collecting = false;
      });
  }, options.statsIntervalMs);
  try {
    const responses = client.connect(outbox, { headers: { authorization: `Bearer ${token}` }, signal });
    for await (const message of responses) {
      const result = await agent.handle(message);
      outbox.push(...result.messages);
      if (message.kind.case === 'snapshot' || message.kind.case === 'delta') outcome.progressed = true;
      if (result.controlError !== undefined) {
        if (SLOW_CODES.has(result.controlError)) outcome.policy = SLOW_RECONNECT;
        if (result.controlError === ControlErrorCode.SERVER_SHUTDOWN) outcome.immediate = true;
        // A replaced stream keeps backing off: two agents sharing an id (a cloned machine-id)
        // would otherwise take the stream from each other in a tight loop.
        if (result.controlError === ControlErrorCode.REPLACED) outcome.progressed = false;
      }
    }
    log('control plane closed the stream');
  } catch (e) {
    const err = ConnectError.from(e);
    if (!signal.aborted) log(`stream failed: ${Code[err.code]}: ${err.rawMessage}`);
    if (SLOW_STATUSES.has(err.code)) outcome.policy = SLOW_RECONNECT;
  } finally {
    clearInterval(timer);
    outbox.close();
    agent.disconnected();
  }
  return outcome;
}

export async function runSession(options: SessionOptions): Promise<void> {
  const { signal, log = () => {}, delay = (a, p) => backoffDelay(a, p) } = options;
  let attempt = 0;
  while (!signal.aborted) {
    const outcome = await runStream(options);
    if (signal.aborted) return;
    attempt = outcome.progressed ? 0 : attempt + 1;
    const wait = outcome.immediate ? 0 : delay(attempt, outcome.policy);
    log(`reconnecting in ${(wait / 1000).toFixed(1)} s (keeping the last applied state)`);
    try {
      await sleep(wait, undefined, { signal });
    } catch {
      return; // aborted while waiting
    }
  }
}
