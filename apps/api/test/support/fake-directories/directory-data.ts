import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type KeyObject, verify } from 'node:crypto';

/** The people and groups of a fake directory; tests change them between sync runs. */
export interface FakeUser {
  id: string;
  email: string;
  /** False: suspended / deactivated at the directory. */
  active: boolean;
}

export interface FakeGroup {
  id: string;
  name: string;
  /** User ids. */
  members: string[];
}

export interface DirectoryData {
  users: FakeUser[];
  groups: FakeGroup[];
}

/** Small pages, so every sync walks several of them. */
export const FAKE_PAGE_SIZE = 2;

export interface FakeServer {
  url: string;
  /** Every request the server answered, as `METHOD path?query` (tests count pages with it). */
  requests: string[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, url: URL, body: string) => { status: number; body: unknown; headers?: Record<string, string> };

/** An HTTP server on 127.0.0.1, port 0, answering with `handler`. */
export async function startFakeServer(handler: (base: string) => Handler): Promise<FakeServer> {
  const requests: string[] = [];
  let handle: Handler | undefined;
  const server: Server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      let answer: ReturnType<Handler>;
      try {
        answer = handle ? handle(req, url, Buffer.concat(chunks).toString('utf8')) : { status: 503, body: {} };
      } catch (error) {
        answer = { status: 500, body: { error: String(error) } };
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handle = handler(url);
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One page of `items` from `offset`. */
export const pageOf = <T>(items: T[], offset: number) => items.slice(offset, offset + FAKE_PAGE_SIZE);

/** The bearer token of a request, if any. */
export const bearerOf = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];

/**
 * Verifies a JWT the way the real token endpoints do: the signature with the client's public
 * key (RS256 or ES256), then the claims. Returns the claims, or a reason for refusing it.
 */
export function verifyJwt(jwt: string, publicKey: KeyObject): Record<string, unknown> | string {
  const [header, payload, signature] = jwt.split('.');
  if (!header || !payload || !signature) return 'malformed assertion';
  const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
  const input = Buffer.from(`${header}.${payload}`);
  const sig = Buffer.from(signature, 'base64url');
  const key = publicKey;
  const ok =
    alg === 'RS256'
      ? verify('sha256', input, key, sig)
      : alg === 'ES256'
        ? verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, sig)
        : false;
  if (!ok) return 'invalid signature';
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (typeof claims.exp !== 'number' || claims.exp < Date.now() / 1000) return 'expired assertion';
  return claims;
}

export const oauthError = (error: string, description: string) => ({
  status: 401,
  body: { error, error_description: description },
});
