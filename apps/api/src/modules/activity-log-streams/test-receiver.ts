import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One request a test receiver got. */
export interface ReceivedBatch {
  authorization: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown>[];
}

/**
 * A Vector/Logstash stand-in for tests: an HTTP(S) server on loopback that records every batch.
 * `down()` closes the port (connection refused), `up()` opens the same port again; `status`
 * sets the answer.
 */
export class TestReceiver {
  readonly batches: ReceivedBatch[] = [];
  status = 200;
  /** How long each answer takes (a slow receiver). */
  delayMs = 0;
  #server: http.Server | https.Server | undefined;
  #port = 0;

  constructor(private readonly tls?: { key: string; cert: string }) {}

  get url(): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.#port}/ingest`;
  }

  /** Every event received, in arrival order. */
  get events(): Record<string, unknown>[] {
    return this.batches.flatMap((b) => b.body);
  }

  async up(): Promise<void> {
    const handler: http.RequestListener = (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
        const status = this.status;
        if (status >= 200 && status < 300) {
          this.batches.push({
            authorization: req.headers.authorization,
            contentType: req.headers['content-type'],
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>[],
          });
        }
        res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' }).end(status < 300 ? 'ok' : 'unavailable');
      });
    };
    const server = this.tls ? https.createServer({ key: this.tls.key, cert: this.tls.cert }, handler) : http.createServer(handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A self-signed certificate for 127.0.0.1 (generated with openssl), as PEM key and certificate. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-stream-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resolves once `check` holds, polling; fails after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
