/** A loopback webhook receiver for tests and the bench: records what it got, answers as told. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface TestReceiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** How the next requests are answered (the request and how many came before it). */
  answer: (request: ReceivedRequest, index: number) => ReceiverAnswer;
  close(): Promise<void>;
}

export async function startReceiver(port = 0, path = '/hook'): Promise<TestReceiver> {
  const sockets = new Set<import('node:net').Socket>();
  const receiver: TestReceiver = {
    url: '',
    port: 0,
    received: [],
    answer: () => ({ status: 204 }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = receiver.received.length;
      receiver.received.push(request);
      const answer = receiver.answer(request, index);
      if (answer === 'hang') return;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  server.keepAliveTimeout = 1_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}

/** Polls `check` until it returns true (a test condition with a deadline, never a fixed sleep). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
