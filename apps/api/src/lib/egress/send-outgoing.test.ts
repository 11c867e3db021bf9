import type http from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkEgressUrl, EgressBlockedError, EgressRequestError, type OutgoingRequest, sendOutgoing } from './index.js';
import {
  makeCertificates,
  startHttpServer,
  startHttpsServer,
  startSilentServer,
  type TestCertificates,
  type TestServer,
} from './test-servers.js';

const NONE = { allowCidrs: [] };
const LOOPBACK = { allowCidrs: ['127.0.0.0/8', '::1/128'] };

const servers: TestServer[] = [];
async function serve(start: Promise<TestServer>): Promise<TestServer> {
  const server = await start;
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ok: http.RequestListener = (_req, res) => res.end('ok');

function send(url: string, extra: Partial<OutgoingRequest> = {}) {
  return sendOutgoing({ url, body: '{"hello":"world"}', timeoutMs: 3_000, policy: NONE, ...extra });
}

async function failureOf(promise: Promise<unknown>): Promise<EgressRequestError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EgressRequestError);
  return err as EgressRequestError;
}

describe('sendOutgoing: the guard', () => {
  it('refuses loopback, unspecified, link-local and private destinations in every spelling, sending nothing', async () => {
    // Listening on :: (dual stack) catches 127.0.0.1, ::1 and 0.0.0.0 alike.
    const server = await serve(startHttpServer(ok, '::'));
    const p = server.port;
    const urls = [
      `http://127.0.0.1:${p}/`,
      `http://localhost:${p}/`,
      `http://[::1]:${p}/`,
      `http://0.0.0.0:${p}/`,
      `http://0:${p}/`,
      `http://[::]:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f.1:${p}/`,
      `http://0x7f000001:${p}/`,
      `http://127.1:${p}/`,
      `http://017700000001:${p}/`,
      `https://127.0.0.1:${p}/`,
      `http://169.254.169.254:${p}/latest/meta-data/`,
      `http://10.0.0.1:${p}/`,
      `http://192.168.0.1:${p}/`,
      `http://[fe80::1]:${p}/`,
      `http://[fd00::1]:${p}/`,
    ];
    for (const url of urls) {
      const err = await failureOf(send(url));
      expect(err.kind, url).toBe('blocked');
      expect(err.cause, url).toBeInstanceOf(EgressBlockedError);
      await expect(checkEgressUrl(url, NONE), url).rejects.toBeInstanceOf(EgressBlockedError);
    }
    expect(server.connections()).toBe(0);

    // The same server is reachable once allow-listed: the zero above is a refusal, not a dead port.
    for (const url of [`http://127.1:${p}/`, `http://[::1]:${p}/`, `http://localhost:${p}/`]) {
      expect((await send(url, { policy: LOOPBACK })).status, url).toBe(200);
      await expect(checkEgressUrl(url, LOOPBACK)).resolves.toBeUndefined();
    }
    expect(server.connections()).toBe(3);
  });

  it('names the address and the reason in the refusal', async () => {
    const err = await failureOf(send('http://169.254.169.254/'));
    const cause = err.cause as EgressBlockedError;
    expect(cause.address).toBe('169.254.169.254');
    expect(cause.reason).toBe('link_local');
    expect(err.message).toContain('169.254.169.254');
    await expect(checkEgressUrl('http://[::ffff:127.0.0.1]/', NONE)).rejects.toMatchObject({ reason: 'loopback' });
  });

  it('refuses schemes other than http and https and hosts that do not resolve', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'javascript:alert(1)', 'not a url']) {
      expect((await failureOf(send(url))).kind, url).toBe('blocked');
      await expect(checkEgressUrl(url, LOOPBACK), url).rejects.toBeInstanceOf(EgressBlockedError);
    }
    await expect(checkEgressUrl('http://no-such-host.invalid/', NONE)).rejects.toMatchObject({ reason: 'unresolvable' });
    // At send time a name that does not resolve is a (retryable) network failure.
    expect((await failureOf(send('http://no-such-host.invalid/'))).kind).toBe('network');
  });

  it('does not follow a redirect, even to an allowed address', async () => {
    const target = await serve(startHttpServer(ok, '127.0.0.2'));
    const location = `http://127.0.0.2:${target.port}/`;
    const first = await serve(
      startHttpServer((_req, res) => {
        res.writeHead(302, { location });
        res.end();
      }),
    );
    const url = `http://127.0.0.1:${first.port}/hook`;
    const onlyFirst = await send(url, { policy: { allowCidrs: ['127.0.0.1/32'] } });
    expect(onlyFirst.status).toBe(302);
    const both = await send(url, { policy: { allowCidrs: ['127.0.0.0/8'] } });
    expect(both.status).toBe(302);
    expect(first.connections()).toBe(2);
    expect(target.connections()).toBe(0);
  });
});

describe('sendOutgoing: the exchange', () => {
  it('sends the method, path, body, headers and basic auth, and reports status and duration', async () => {
    let seen: { method?: string; url?: string; headers?: http.IncomingHttpHeaders; body?: string } = {};
    const server = await serve(
      startHttpServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          seen = { method: req.method, url: req.url, headers: req.headers, body };
          res.writeHead(201);
          res.end('created');
        });
      }),
    );
    const result = await send(`http://localhost:${server.port}/in?x=1`, {
      policy: LOOPBACK,
      headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1' },
      basicAuth: { username: 'vector', password: 's3cret:pw' },
    });
    expect(result).toMatchObject({ status: 201, excerpt: 'created' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.retryAfterMs).toBeUndefined();
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/in?x=1');
    expect(seen.body).toBe('{"hello":"world"}');
    expect(seen.headers?.['content-type']).toBe('application/json');
    expect(seen.headers?.['webhook-id']).toBe('evt_1');
    expect(seen.headers?.host).toBe(`localhost:${server.port}`);
    expect(seen.headers?.authorization).toBe(`Basic ${Buffer.from('vector:s3cret:pw').toString('base64')}`);
  });

  it('keeps the first KiB of the body and stops reading there', async () => {
    const big = await serve(startHttpServer((_req, res) => res.end('x'.repeat(5000))));
    const cut = await send(`http://127.0.0.1:${big.port}/`, { policy: LOOPBACK });
    expect(cut.excerpt).toBe('x'.repeat(1024));

    // Two-byte characters: the excerpt never ends in half a character.
    const wide = await serve(startHttpServer((_req, res) => res.end('é'.repeat(2000))));
    const excerpt = (await send(`http://127.0.0.1:${wide.port}/`, { policy: LOOPBACK })).excerpt;
    expect(excerpt).toBe('é'.repeat(512));
    expect((await send(`http://127.0.0.1:${wide.port}/`, { policy: LOOPBACK, maxResponseBytes: 5 })).excerpt).toBe('éé');

    // A body that never ends: the answer comes as soon as the excerpt is full, not at the timeout.
    const endless = await serve(
      startHttpServer((_req, res) => {
        res.writeHead(200);
        res.write('y'.repeat(2048));
      }),
    );
    const started = Date.now();
    const result = await send(`http://127.0.0.1:${endless.port}/`, { policy: LOOPBACK, timeoutMs: 10_000 });
    expect(result.excerpt).toBe('y'.repeat(1024));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('parses Retry-After in seconds and as an HTTP date', async () => {
    const seconds = await serve(
      startHttpServer((_req, res) => {
        res.writeHead(429, { 'retry-after': '120' });
        res.end();
      }),
    );
    expect(await send(`http://127.0.0.1:${seconds.port}/`, { policy: LOOPBACK })).toMatchObject({
      status: 429,
      retryAfterMs: 120_000,
    });
    const date = await serve(
      startHttpServer((_req, res) => {
        res.writeHead(503, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() });
        res.end();
      }),
    );
    const result = await send(`http://127.0.0.1:${date.port}/`, { policy: LOOPBACK });
    expect(result.status).toBe(503);
    expect(result.retryAfterMs).toBeGreaterThan(50_000);
    expect(result.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('times out on a receiver that accepts and never answers', async () => {
    const silent = await serve(startSilentServer());
    const started = Date.now();
    const err = await failureOf(send(`http://127.0.0.1:${silent.port}/`, { policy: LOOPBACK, timeoutMs: 500 }));
    const waited = Date.now() - started;
    expect(err.kind).toBe('timeout');
    expect(silent.connections()).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(450);
    expect(waited).toBeLessThan(2_000);
    expect(err.durationMs).toBeGreaterThanOrEqual(450);
  });

  it('returns the status when the body stalls past the deadline', async () => {
    const stalling = await serve(
      startHttpServer((_req, res) => {
        res.writeHead(200);
        res.write('partial');
      }),
    );
    const result = await send(`http://127.0.0.1:${stalling.port}/`, { policy: LOOPBACK, timeoutMs: 500 });
    expect(result).toMatchObject({ status: 200, excerpt: 'partial' });
  });

  it('reports a refused connection as a network failure without leaking secrets', async () => {
    const gone = await startSilentServer();
    await gone.close();
    const err = await failureOf(
      send(`http://127.0.0.1:${gone.port}/`, {
        policy: LOOPBACK,
        headers: { 'webhook-signature': 'v1,SIGNATURE-SECRET' },
        basicAuth: { username: 'u', password: 'PASSWORD-SECRET' },
      }),
    );
    expect(err.kind).toBe('network');
    const text = `${err.message} ${String((err.cause as Error | undefined)?.message)}`;
    expect(text).not.toMatch(/SECRET/);
    expect(text).not.toContain(Buffer.from('u:PASSWORD-SECRET').toString('base64'));
  });
});

describe('sendOutgoing: TLS', () => {
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeCertificates();
  });

  it('trusts the destination CA passed in, verifies the host name and sends SNI', async () => {
    let sni: string | undefined;
    const server = await serve(
      startHttpsServer(
        (req, res) => {
          sni = (req.socket as import('node:tls').TLSSocket).servername || undefined;
          res.end('secure');
        },
        { key: certs.key, cert: certs.cert },
      ),
    );
    const url = `https://localhost:${server.port}/`;
    expect(await send(url, { policy: LOOPBACK, ca: certs.caPem })).toMatchObject({ status: 200, excerpt: 'secure' });
    expect(sni).toBe('localhost');

    // Without the CA: an unknown issuer.
    expect((await failureOf(send(url, { policy: LOOPBACK }))).kind).toBe('tls');
    // The certificate names localhost only: reaching it by address fails verification.
    const byAddress = await failureOf(send(`https://127.0.0.1:${server.port}/`, { policy: LOOPBACK, ca: certs.caPem }));
    expect(byAddress.kind).toBe('tls');
  });

  it('trusts nothing from a malformed CA: a TLS failure, not a connection to an unverified server', async () => {
    const server = await serve(startHttpsServer(ok, { key: certs.key, cert: certs.cert }));
    const err = await failureOf(
      send(`https://localhost:${server.port}/`, { policy: LOOPBACK, ca: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }),
    );
    expect(err.kind).toBe('tls');
  });

  it('reports plain HTTP behind an https URL as a TLS failure', async () => {
    const plain = await serve(startHttpServer(ok));
    expect((await failureOf(send(`https://127.0.0.1:${plain.port}/`, { policy: LOOPBACK }))).kind).toBe('tls');
  });
});
