import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type Server,
  type ServerResponse,
  createServer as createHttpServer,
} from 'node:http';
import { createConnection, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';

/**
 * A small load balancer for the replicas system test (docs/operations.md#replicas shows the
 * HAProxy equivalent for production):
 *
 * - HTTP: round-robin over the healthy backends. A backend is healthy while its
 *   `GET /api/v1/health/ready` answers 200 (checked every `healthIntervalMs`; out after 2 failed
 *   checks in a row, in after 1 success); a draining API answers 503 and leaves the rotation
 *   before it stops accepting.
 * - gRPC (h2c): a TCP pass-through, each new connection to a healthy backend; an open connection
 *   stays where it is until one side closes it (the API ends its gateway streams when it closes).
 *
 * Retries: a request is sent again to another backend ONLY when connecting to the chosen one was
 * refused (ECONNREFUSED): the request never reached a server, so sending it elsewhere cannot run
 * it twice. Anything else (a reset, a timeout, a 5xx) may have reached a server and is NOT
 * retried: the client gets a 502 (or the backend's own answer). A backend that refuses a
 * connection counts as down until its next health check passes.
 *
 * Every HTTP request to a backend uses a fresh connection (no keep-alive pool towards the
 * backends), so a backend closing an idle pooled socket can never eat a request.
 */
export interface Backend {
  name: string;
  httpPort: number;
  grpcPort: number;
}

export interface LoadBalancerOptions {
  healthIntervalMs?: number;
  /** Address of the gRPC pass-through (e.g. a veth address a gateway namespace reaches). */
  grpcHost?: string;
}

/** What the gRPC pass-through did, for the test to measure reconnects. */
export interface TcpEvent {
  at: number;
  backend: string;
  /** Upstream connected (`open`) or the connection pair closed (`close`). */
  kind: 'open' | 'close';
  connection: number;
}

/** Failed health checks in a row that take a backend out (HAProxy's `fall`). */
const FALL = 2;

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}

export class LoadBalancer {
  readonly tcpEvents: TcpEvent[] = [];
  /** Requests sent again to another backend after a refused connection. */
  retriedRequests = 0;
  /** Requests answered 502 by the balancer itself (no healthy backend, or a backend error after connecting), with why. */
  readonly failures: string[] = [];
  private readonly healthy = new Map<string, boolean>();
  private readonly failedChecks = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private httpServer: Server | undefined;
  private tcpServer: TcpServer | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private nextHttp = 0;
  private nextTcp = 0;
  private connections = 0;
  httpPort = 0;
  grpcPort = 0;

  constructor(
    private readonly backends: Backend[],
    private readonly options: LoadBalancerOptions = {},
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.httpPort}`;
  }

  isHealthy(name: string): boolean {
    return this.healthy.get(name) === true;
  }

  async start(): Promise<void> {
    const http = createHttpServer((req, res) => void this.proxy(req, res));
    http.keepAliveTimeout = 30_000;
    const tcp = createTcpServer((client) => this.pass(client));
    await Promise.all([listen(http, '127.0.0.1'), listen(tcp, this.options.grpcHost ?? '127.0.0.1')]);
    this.httpServer = http;
    this.tcpServer = tcp;
    this.httpPort = portOf(http);
    this.grpcPort = portOf(tcp);
    await this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), this.options.healthIntervalMs ?? 200);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const s of this.sockets) s.destroy();
    this.httpServer?.closeAllConnections();
    await Promise.all(
      [this.httpServer, this.tcpServer].map(
        (server) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
      ),
    );
  }

  private async checkAll(): Promise<void> {
    if (this.checking) return; // a slow round (loaded host) is not overlapped by the next one
    this.checking = true;
    try {
      await Promise.all(
        this.backends.map(async (b) => {
          // Out after FALL failed checks in a row (one slow answer on a loaded host is not an outage), in after one success.
          const failures = (await ready(b.httpPort)) ? 0 : (this.failedChecks.get(b.name) ?? 0) + 1;
          this.failedChecks.set(b.name, failures);
          this.healthy.set(b.name, failures === 0 || (this.healthy.get(b.name) === true && failures < FALL));
        }),
      );
    } finally {
      this.checking = false;
    }
  }

  /** The healthy backends in round-robin order from `cursor`, each once. */
  private rotation(cursor: number): Backend[] {
    const n = this.backends.length;
    return Array.from({ length: n }, (_, i) => this.backends[(cursor + i) % n]!).filter((b) => this.isHealthy(b.name));
  }

  private async proxy(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const candidates = this.rotation(this.nextHttp++);
    for (const [i, backend] of candidates.entries()) {
      const outcome = await this.forward(backend, req, body, res);
      if (outcome !== 'refused') return;
      // Connection refused: the request never reached a server, so another one may take it.
      this.healthy.set(backend.name, false);
      if (i < candidates.length - 1) this.retriedRequests++;
    }
    this.failures.push(
      `${new Date().toISOString()} ${req.method} ${req.url}: no healthy backend (tried ${candidates.map((c) => c.name).join(', ') || 'none'})`,
    );
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('no healthy backend');
  }

  private forward(backend: Backend, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<'done' | 'refused'> {
    return new Promise((resolve) => {
      let answered = false;
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: backend.httpPort,
          method: req.method,
          path: req.url,
          agent: false,
          headers: { ...withoutHopByHop(req.headers), 'content-length': String(body.length), connection: 'close' },
        },
        (answer) => {
          answered = true;
          res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
          answer.pipe(res);
          answer.on('end', () => resolve('done'));
          answer.on('error', () => {
            res.destroy();
            resolve('done');
          });
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return; // the answer's own error handler ends it
        if (error.code === 'ECONNREFUSED') return resolve('refused');
        // It may have reached the server: never retried.
        this.failures.push(`${new Date().toISOString()} ${req.method} ${req.url}: backend ${backend.name}: ${error.code ?? error.message}`);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`backend ${backend.name}: ${error.code ?? error.message}`);
        resolve('done');
      });
      upstream.end(body);
    });
  }

  private pass(client: Socket): void {
    client.pause();
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    const candidates = this.rotation(this.nextTcp++);
    const attempt = (i: number) => {
      const backend = candidates[i];
      if (!backend || client.destroyed) return void client.destroy();
      const upstream = createConnection({ host: '127.0.0.1', port: backend.grpcPort });
      const id = ++this.connections;
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        this.sockets.add(upstream);
        this.tcpEvents.push({ at: Date.now(), backend: backend.name, kind: 'open', connection: id });
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        // Refused before anything was sent: try the next backend (nothing reached a server).
        if (!connected && error.code === 'ECONNREFUSED') return attempt(i + 1);
        client.destroy();
      });
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        if (!connected) return;
        this.tcpEvents.push({ at: Date.now(), backend: backend.name, kind: 'close', connection: id });
        client.destroy();
      });
      client.on('close', () => upstream.destroy());
    };
    attempt(0);
  }
}

function listen(server: Server | TcpServer, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function portOf(server: Server | TcpServer): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** Whether `/api/v1/health/ready` answers 200 within a second. */
function ready(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/health/ready', agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
