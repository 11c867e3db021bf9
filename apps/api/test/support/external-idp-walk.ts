import { externalProviders } from '#src/db/schema/index.js';
import type { Db } from '#src/db/client.js';
import type { HttpMethod, TestApp } from '#test/helpers.js';
import { type ExternalIdp, followIdpRedirects, startExternalIdp } from './external-idp.js';

/** The parts of the events walk's world and caller these fixtures use (test/events-walk.int.test.ts). */
interface WalkWorld {
  n: number;
  admin: { cookie: string };
  db: Db;
  request: TestApp['request'];
  api(method: HttpMethod, url: string, as: { cookie: string }, payload?: unknown): Promise<Record<string, unknown>>;
}
interface WalkCaller {
  id: number;
  username: string;
}
interface WalkCall {
  url: string;
  payload?: unknown;
  cookie?: string;
  object: { type: string; id?: string | number };
}

let idp: Promise<{ idp: ExternalIdp; redirect: string }> | undefined;

/** The walk's identity provider, started on first use, registered with the app's redirect URL. */
async function walkIdp(w: WalkWorld) {
  idp ??= (async () => {
    const { redirect_url } = (await w.api('GET', '/api/v1/openid/provider', w.admin)) as { redirect_url: string };
    return { idp: await startExternalIdp({ redirectUris: [redirect_url] }), redirect: redirect_url };
  })();
  return idp;
}

export async function closeWalkIdp(): Promise<void> {
  if (idp) await (await idp).idp.close();
  idp = undefined;
}

/** Replaces whatever provider the walk configured with one named `name` at the walk's IdP. */
async function freshProvider(w: WalkWorld, name: string) {
  const { idp: server } = await walkIdp(w);
  await w.db.delete(externalProviders);
  const body = { kind: 'Custom', name, client_id: server.clientId, client_secret: server.clientSecret, base_url: server.issuer };
  const created = await w.api('POST', '/api/v1/openid/provider', w.admin, body);
  return { body, created };
}

/** events-walk fixtures of the external OpenID routes (docs/external-openid.md). */
export const EXTERNAL_IDP_FIXTURES: Record<string, (w: WalkWorld, caller: WalkCaller) => Promise<WalkCall>> = {
  'POST /api/v1/openid/provider': async (w) => {
    const { idp: server } = await walkIdp(w);
    await w.db.delete(externalProviders);
    return {
      url: '/api/v1/openid/provider',
      payload: { kind: 'Custom', name: `walk${w.n}`, client_id: server.clientId, base_url: server.issuer },
      object: { type: 'external_provider' },
    };
  },
  'PUT /api/v1/openid/provider/:name': async (w) => {
    const { body } = await freshProvider(w, `walk${w.n}`);
    return {
      url: `/api/v1/openid/provider/walk${w.n}`,
      payload: { ...body, display_name: 'Walk' },
      object: { type: 'external_provider' },
    };
  },
  'DELETE /api/v1/openid/provider/:name': async (w) => {
    await freshProvider(w, `walk${w.n}`);
    return { url: `/api/v1/openid/provider/walk${w.n}`, object: { type: 'external_provider' } };
  },
  // The caller signs in at the IdP with their own verified email: linked, then signed in.
  'POST /api/v1/openid/callback': async (w, caller) => {
    const { idp: server, redirect } = await walkIdp(w);
    await freshProvider(w, `walk${w.n}`);
    server.setAccount({ sub: `walk-${caller.id}`, email: `${caller.username}@walk.example`, email_verified: true });
    server.signInAs(`walk-${caller.id}`);
    const info = await w.request('GET', '/api/v1/openid/auth_info');
    const pending = info.cookies.find((c) => c.name === 'palisade_external_login');
    const back = await followIdpRedirects(info.json().url, redirect);
    return {
      url: '/api/v1/openid/callback',
      cookie: `palisade_external_login=${pending?.value}`,
      payload: {
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
        iss: back.searchParams.get('iss') ?? undefined,
      },
      object: { type: 'user', id: caller.id },
    };
  },
};
