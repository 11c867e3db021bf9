import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { ControlMessageSchema, FirewallVerdict } from '@palisade/proto';
import { encodeBase64 } from '@palisade/wireguard';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeWireGuard } from '#src/adapters/fake-wireguard.js';
import type { FirewallPort } from '#src/ports/firewall.js';
import { createAgent } from './control/agent.js';
import { startHealthServer } from './health.js';
import { AGENT_METRIC_NAMES, GatewayMetrics } from './metrics.js';

const k = (n: number) => encodeBase64(new Uint8Array(32).fill(n));
const identity = { gatewayId: 'gw-1', gatewayName: 'edge', hostname: 'edge.local', agentVersion: '0.1.0', interfaceName: 'wg0' };
const iface = { privateKey: k(90), listenPort: 51820, addresses: ['10.8.0.1/24'] };
const peers = [1, 2, 3].map((n) => ({ publicKey: k(n), allowedIps: [`10.8.0.${n + 1}/32`] }));
const firewall = {
  managed: true,
  defaultAllow: false,
  rules: [{ id: 'r1_allow', verdict: FirewallVerdict.ACCEPT, members: ['d1'] }],
  members: [{ key: 'd1', addresses: ['10.8.0.2'] }],
};
const snapshot = (revision: bigint) =>
  create(ControlMessageSchema, {
    kind: { case: 'snapshot', value: { revisionEpoch: 'e1', revision, interface: iface, peers, firewall } },
  });
const ruleDelta = (revision: bigint) =>
  create(ControlMessageSchema, {
    kind: {
      case: 'delta',
      value: {
        revision,
        ops: [{ op: { case: 'firewallRuleUpsert', value: { rule: { id: 'r2_deny', verdict: FirewallVerdict.DROP, anySource: true } } } }],
      },
    },
  });

/** `name{labels} value` lines of the text format; throws on a line that is neither that nor a comment. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (!m) throw new Error(`malformed line: ${line}`);
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

describe('agent /metrics', () => {
  it('reports peers, the acknowledged revision, apply and nft durations by result, and reconnects', async () => {
    let failNext = false;
    const port: FirewallPort = {
      table: 'inet palisade_wg0',
      async apply() {
        if (failNext) {
          failNext = false;
          throw new Error('nft -f - failed');
        }
        return true;
      },
      async remove() {},
    };
    const metrics = new GatewayMetrics();
    const agent = createAgent({ wireguard: createFakeWireGuard(), firewall: port, identity, metrics });
    metrics.watch(agent.status);
    const server = await startHealthServer(0, agent.status, '127.0.0.1', metrics);
    close = () => new Promise((r) => server.close(() => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;

    agent.connected();
    await agent.handle(snapshot(5n));
    failNext = true;
    await agent.handle(ruleDelta(6n)); // the nft apply fails: a failed delta
    agent.disconnected();
    agent.connected();
    await agent.handle(snapshot(7n));

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    for (const name of AGENT_METRIC_NAMES) expect(text, name).toContain(`# TYPE ${name} `);
    const s = samples(text);
    expect(s.get('palisade_agent_peers')).toBe(3);
    expect(s.get('palisade_agent_acked_revision')).toBe(7);
    expect(s.get('palisade_agent_connected')).toBe(1);
    expect(s.get('palisade_agent_reconnects_total')).toBe(1);
    expect(s.get('palisade_agent_apply_duration_seconds_count{kind="snapshot",result="ok"}')).toBe(2);
    expect(s.get('palisade_agent_apply_duration_seconds_count{kind="delta",result="error"}')).toBe(1);
    expect(s.get('palisade_agent_nft_duration_seconds_count{result="ok"}')).toBe(2);
    expect(s.get('palisade_agent_nft_duration_seconds_count{result="error"}')).toBe(1);
    // No peer key or address in any label.
    expect(text).not.toContain(k(1));
    expect(text).not.toContain('10.8.0.');
    // /health is unchanged next to it; a lost stream shows as disconnected.
    expect((await fetch(url.replace('/metrics', '/health'))).status).toBe(200);
    agent.disconnected();
    expect(samples(await (await fetch(url)).text()).get('palisade_agent_connected')).toBe(0);
  });

  it('is not served without metrics (the health server alone)', async () => {
    const agent = createAgent({ wireguard: createFakeWireGuard(), identity });
    const server = await startHealthServer(0, agent.status, '127.0.0.1');
    close = () => new Promise((r) => server.close(() => r()));
    expect((await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).status).toBe(404);
  });
});
