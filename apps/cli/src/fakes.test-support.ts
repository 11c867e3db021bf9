import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { RunResult, System } from './system.js';

/** A System whose commands are recorded and answered by `answer` (no real process runs). */
export function fakeSystem(options: {
  root?: boolean;
  installed?: string[];
  answer?: (cmd: string, args: string[], input?: string) => RunResult | Promise<RunResult>;
}): System & { calls: { cmd: string; args: string[] }[] } {
  const calls: { cmd: string; args: string[] }[] = [];
  return {
    calls,
    run: async (cmd, args, input) => {
      calls.push({ cmd, args });
      return options.answer ? options.answer(cmd, args, input) : { code: 0, stdout: '', stderr: '' };
    },
    has: (cmd) => (options.installed ?? []).includes(cmd),
    isRoot: () => options.root ?? true,
  };
}

export interface FakeServer {
  url: string;
  requests: { method: string; url: string; body: string }[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1:0 answering every request with `respond`. */
export async function fakeServer(respond: (req: IncomingMessage, body: string) => { status: number; body: string }): Promise<FakeServer> {
  const requests: FakeServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      const answer = respond(req, body);
      res.writeHead(answer.status, { 'content-type': answer.body.startsWith('{') ? 'application/json' : 'text/html' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const TUNNEL = {
  location_id: 3,
  location_name: 'Office',
  addresses: ['10.60.0.2/24'],
  dns: ['10.60.0.1'],
  public_key: 'kSr4wwz9QtTC6cq3qXzeKDr7KYsHPhrUR9RuuMRiKXc=',
  endpoint: 'vpn.example.com:51820',
  allowed_ips: ['10.60.0.0/24'],
  persistent_keepalive: 25,
  config:
    '[Interface]\nPrivateKey = YOUR_PRIVATE_KEY\nAddress = 10.60.0.2/24\nDNS = 10.60.0.1\n\n[Peer]\nPublicKey = kSr4wwz9QtTC6cq3qXzeKDr7KYsHPhrUR9RuuMRiKXc=\nAllowedIPs = 10.60.0.0/24\nEndpoint = vpn.example.com:51820\nPersistentKeepalive = 25\n',
};

/** A port nothing listens on (bound then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}
