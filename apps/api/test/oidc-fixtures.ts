import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';

/** Verifies a compact JWS (RS256 or ES256) against a JWKS with node:crypto; resolves to the header and payload. */
export async function verifyWithJwks(
  jwt: string,
  jwksUri: string,
): Promise<{ header: { kid: string; alg: string }; payload: Record<string, unknown> }> {
  const [h = '', p = '', s = ''] = jwt.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { kid: string; alg: string };
  const { keys } = (await (await fetch(jwksUri)).json()) as { keys: (JsonWebKey & { kid: string })[] };
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) throw new Error(`kid ${header.kid} not in the JWKS`);
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const ok =
    header.alg === 'ES256'
      ? verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))
      : verify('sha256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('bad signature');
  return { header, payload: JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown> };
}

/** A browser's cookies for one origin, path-scoped, enough for the provider's and the console's cookies. */
export class Browser {
  readonly #jar = new Map<string, { value: string; path: string }>();

  constructor(readonly base: string) {}

  #cookieHeader(path: string): string {
    return [...this.#jar]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/')
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  async fetch(url: string, init: { method?: string; body?: string; json?: unknown } = {}): Promise<Response> {
    const target = new URL(url, this.base);
    const headers: Record<string, string> = { cookie: this.#cookieHeader(target.pathname) };
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(target, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';').map((s) => s.trim());
      const eqAt = pair.indexOf('=');
      const name = pair.slice(0, eqAt);
      const value = pair.slice(eqAt + 1);
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attrs.some((a) => /^max-age=0$/i.test(a) || /^expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.#jar.delete(name);
      else this.#jar.set(name, { value, path });
    }
    return res;
  }

  forget(name: string): void {
    this.#jar.delete(name);
  }
}
