/** Loopback servers for the egress tests: each counts the connections it accepted. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestServer {
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}

function track(server: net.Server, port: () => number): TestServer {
  const sockets = new Set<net.Socket>();
  let count = 0;
  server.on('connection', (socket: net.Socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    port: port(),
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function listen(server: net.Server, host: string, port = 0): Promise<TestServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(track(server, () => (server.address() as net.AddressInfo).port)));
  });
}

export function startHttpServer(handler: http.RequestListener, host = '127.0.0.1', port = 0): Promise<TestServer> {
  return listen(http.createServer(handler), host, port);
}

export function startHttpsServer(
  handler: http.RequestListener,
  tls: { key: string; cert: string },
  host = '127.0.0.1',
): Promise<TestServer> {
  return listen(https.createServer(tls, handler), host);
}

/** Accepts connections and never answers. */
export function startSilentServer(host = '127.0.0.1'): Promise<TestServer> {
  return listen(net.createServer(), host);
}

export interface TestCertificates {
  caPem: string;
  key: string;
  cert: string;
}

/** A throw-away CA and a leaf certificate for `localhost` (DNS name only), made with openssl. */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-egress-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  try {
    run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Palisade test CA');
    run('req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=localhost');
    writeFileSync(join(dir, 'leaf.ext'), 'subjectAltName=DNS:localhost\n');
    run(
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      'leaf.ext',
      '-out',
      'leaf.pem',
    );
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    return { caPem: read('ca.pem'), key: read('leaf.key'), cert: read('leaf.pem') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
