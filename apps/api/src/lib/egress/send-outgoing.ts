/**
 * One outgoing HTTP(S) request behind the egress guard. The host is resolved once, every address
 * is checked, and the socket connects only to those checked addresses (a custom `lookup`), so DNS
 * rebinding cannot swap in a blocked address. Redirects are never followed: a 3xx is returned as
 * it is. Error messages never contain request headers or credentials.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { EgressBlockedError, type EgressPolicy } from './address-policy.js';
import { type Destination, parseEgressUrl, type ResolvedAddress, resolveDestination } from './resolve-destination.js';
import { parseRetryAfter } from './retry-after.js';

export interface OutgoingRequest {
  url: string;
  /** POST by default; GET sends `body` too (pass '' for none). */
  method?: 'POST' | 'GET';
  headers?: Record<string, string>;
  body: string | Buffer;
  /** The whole request: DNS, connect, TLS, sending, and the response head. */
  timeoutMs: number;
  /** A PEM CA bundle to trust for this destination instead of the system roots. */
  ca?: string;
  basicAuth?: { username: string; password: string };
  policy: EgressPolicy;
  /** How much of the response body to keep (and read); default 1024 bytes. */
  maxResponseBytes?: number;
}

export interface OutgoingResponse {
  status: number;
  durationMs: number;
  /** The first `maxResponseBytes` of the body, decoded as UTF-8 (never a split character). */
  excerpt: string;
  retryAfterMs?: number;
}

export type EgressFailureKind = 'blocked' | 'timeout' | 'network' | 'tls';

export class EgressRequestError extends Error {
  readonly kind: EgressFailureKind;
  readonly durationMs: number;

  constructor(kind: EgressFailureKind, message: string, durationMs: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'EgressRequestError';
    this.kind = kind;
    this.durationMs = durationMs;
  }
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024;
const TLS_ERROR_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

export async function sendOutgoing(req: OutgoingRequest): Promise<OutgoingResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    parseEgressUrl(req.url);
  } catch (err) {
    throw new EgressRequestError('blocked', (err as Error).message, elapsed(), err);
  }
  let destination: Destination;
  try {
    destination = await resolveDestination(req.url, req.policy, req.timeoutMs);
  } catch (err) {
    if (err instanceof EgressBlockedError && err.reason !== 'unresolvable') {
      throw new EgressRequestError('blocked', err.message, elapsed(), err);
    }
    // A name that does not resolve now may resolve later: a network failure, not a refusal.
    if (elapsed() >= req.timeoutMs) {
      throw new EgressRequestError('timeout', `no address for ${hostOf(req.url)} within ${req.timeoutMs} ms`, elapsed(), err);
    }
    throw new EgressRequestError('network', `could not resolve ${hostOf(req.url)}`, elapsed(), err);
  }
  return exchange(req, destination, Math.max(1, req.timeoutMs - elapsed()), started);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'the host';
  }
}

/** A `lookup` that answers only with the addresses already checked: no second resolution. */
function checkedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(null, addresses);
      return;
    }
    const chosen = addresses.find((a) => !options.family || a.family === options.family) ?? addresses[0];
    if (!chosen) callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 4);
    else callback(null, chosen.address, chosen.family);
  };
}

function requestOptions(req: OutgoingRequest, destination: Destination, bodyLength: number): https.RequestOptions {
  const { url, hostname, isIpLiteral, addresses } = destination;
  const headers: Record<string, string> = { 'user-agent': 'Palisade', ...req.headers };
  headers['content-length'] = String(bodyLength);
  if (req.basicAuth) {
    const { username, password } = req.basicAuth;
    headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }
  return {
    method: req.method ?? 'POST',
    hostname,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers,
    // A fresh connection per request: a pooled socket could outlive the address check.
    agent: false,
    lookup: checkedLookup(addresses),
    ...(url.protocol === 'https:' ? { ca: req.ca, servername: isIpLiteral ? undefined : hostname } : {}),
  };
}

function classify(err: unknown, timedOut: boolean, timeoutMs: number, durationMs: number): EgressRequestError {
  if (timedOut) return new EgressRequestError('timeout', `no response within ${timeoutMs} ms`, durationMs, err);
  const code = String((err as NodeJS.ErrnoException | undefined)?.code ?? '');
  const message = err instanceof Error ? err.message : String(err);
  const kind = TLS_ERROR_CODE.test(code) ? 'tls' : 'network';
  return new EgressRequestError(kind, code && !message.includes(code) ? `${message} (${code})` : message, durationMs, err);
}

interface ResponseHead {
  status: number;
  retryAfterMs?: number;
}

function headOf(res: http.IncomingMessage): ResponseHead {
  const header = res.headers['retry-after'];
  const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header);
  return { status: res.statusCode ?? 0, ...(retryAfterMs !== undefined && { retryAfterMs }) };
}

/** Reads at most `limit` bytes of the body; `done` runs when they are in, or the body ends or breaks. */
function readExcerpt(res: http.IncomingMessage, limit: number, done: () => void): () => string {
  const decoder = new StringDecoder('utf8');
  let excerpt = '';
  let received = 0;
  if (limit <= 0) {
    done();
    return () => excerpt;
  }
  res.on('data', (chunk: Buffer) => {
    if (received >= limit) return;
    const take = chunk.subarray(0, limit - received);
    received += take.length;
    // StringDecoder holds back an incomplete trailing character instead of mangling it.
    excerpt += decoder.write(take);
    if (received >= limit) done();
  });
  for (const event of ['end', 'close', 'error']) res.on(event, done);
  return () => excerpt;
}

function exchange(req: OutgoingRequest, destination: Destination, remainingMs: number, started: number): Promise<OutgoingResponse> {
  const elapsed = () => Math.round(performance.now() - started);
  const transport = destination.url.protocol === 'https:' ? https : http;
  const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
  return new Promise((resolve, reject) => {
    let settled = false;
    let timedOut = false;
    let head: ResponseHead | undefined;
    let excerpt = () => '';
    let request: http.ClientRequest | undefined;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      // Also what stops reading a body past the excerpt: the connection is not reused.
      request?.destroy();
    };
    const finish = () => {
      if (settled || !head) return;
      settle();
      resolve({ ...head, durationMs: elapsed(), excerpt: excerpt() });
    };
    const fail = (err: unknown) => {
      // An error after the status line (a reset mid-body) still leaves a response to report.
      if (head) return finish();
      if (settled) return;
      settle();
      reject(classify(err, timedOut, req.timeoutMs, elapsed()));
    };
    const timer = setTimeout(() => {
      timedOut = true;
      // Once the status is in, the deadline only ends the excerpt.
      if (head) finish();
      else fail(new Error('timeout'));
    }, remainingMs);
    try {
      request = transport.request(requestOptions(req, destination, body.length));
    } catch (err) {
      return fail(err);
    }
    request.on('error', fail);
    request.on('response', (res) => {
      head = headOf(res);
      excerpt = readExcerpt(res, req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, finish);
    });
    request.end(body);
  });
}
