import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { type ControlMessage, ControlMessageSchema, type GatewayMessage, GatewayService } from '@palisade/proto';

/**
 * A stand-in control plane for the agent's end-to-end system test, run as a child process inside
 * the test's network namespace (`node --import tsx`). It reads a JSON script from argv[2]:
 * `{ snapshot: Snapshot-init, deltas: Delta-init[] }`, serves it to the first gateway that says
 * hello, and prints one JSON line per event on stdout: `listening`, every gateway message, `done`.
 */
interface Script {
  snapshot: Record<string, unknown>;
  deltas: Record<string, unknown>[];
}
const script = JSON.parse(process.argv[2] ?? '{}', (_, v) =>
  typeof v === 'string' && /^\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v,
) as Script;
const emit = (event: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify(event, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);

async function* connect(requests: AsyncIterable<GatewayMessage>): AsyncGenerator<ControlMessage> {
  const it = requests[Symbol.asyncIterator]();
  const next = async (kind: string) => {
    for (;;) {
      const r = await it.next();
      if (r.done) throw new Error(`stream ended before ${kind}`);
      emit({ event: 'message', kind: r.value.kind.case, value: r.value.kind.value });
      if (r.value.kind.case === kind) return r.value;
    }
  };
  await next('hello');
  yield create(ControlMessageSchema, { kind: { case: 'snapshot', value: script.snapshot } });
  await next('ack');
  for (const delta of script.deltas) {
    yield create(ControlMessageSchema, { kind: { case: 'delta', value: delta } });
    await next('ack');
  }
  await next('statsReport');
  emit({ event: 'done' });
  await next('never'); // keep the stream open and log whatever else arrives
}

const server = http2.createServer(connectNodeAdapter({ routes: (router: ConnectRouter) => router.service(GatewayService, { connect }) }));
server.listen(0, '127.0.0.1', () => emit({ event: 'listening', port: (server.address() as AddressInfo).port }));
