import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '#src/lib/problem.js';
import type { SessionActor } from '#src/modules/auth/sessions.repo.js';
import { originOf } from '#src/modules/events/event-actor.js';
import type { Actor } from '#src/modules/users/users.service.js';

export const SESSION_COOKIE = 'palisade_session';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in caller (any session state), or null. `apiTokenId` is set when an API token
     * (`Authorization: Bearer`) authenticated the request instead of the session cookie.
     */
    session: (SessionActor & { apiTokenId?: number }) | null;
    /** The session token this response's cookie carries (a sign-in, or a refreshed expiry), or null. */
    issuedSessionToken: string | null;
  }
}

/** The caller as services see it; only fully authenticated sessions count. */
export function actorOf(request: FastifyRequest): Actor {
  const s = request.session;
  if (s?.state !== 'active') throw new Error('actorOf called on a route without an authenticated session');
  return { userId: s.userId, username: s.username, isAdmin: s.isAdmin, sessionId: s.sessionId, ...originOf(request) };
}

export interface SessionCookieOptions {
  secure: boolean;
  maxAgeSeconds: number;
}

export function setSessionCookie(reply: FastifyReply, token: string, options: SessionCookieOptions): void {
  reply.request.issuedSessionToken = token;
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
    maxAge: options.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

const BEARER = /^bearer(?:\s|$)/i;
const BEARER_TOKEN = /^bearer +([\x21-\x7e]{1,128})$/i;

function invalidToken(reply: FastifyReply): HttpProblem {
  reply.header('www-authenticate', 'Bearer error="invalid_token"');
  return new HttpProblem(401, 'auth.unauthenticated', 'Invalid or revoked API token.');
}

/**
 * Resolves the caller of API requests to `request.session`: an `Authorization: Bearer` API token
 * (docs/api.md) when the request carries one, the session cookie otherwise. A request with a Bearer
 * header is authenticated by the token alone (its cookie is not read): a malformed, unknown,
 * deleted or disabled-owner token answers 401 at once. Other schemes (a proxy's Basic auth) are
 * left alone. When a cookie session's sliding expiry moves forward, the cookie is sent again with a
 * full lifetime, so the browser keeps it as long as the server does.
 */
export const sessionPlugin = fp(async (app: FastifyInstance, opts: SessionCookieOptions) => {
  app.decorateRequest('session', null);
  app.decorateRequest('issuedSessionToken', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const authorization = request.headers.authorization;
    if (authorization !== undefined && BEARER.test(authorization)) {
      const bearer = BEARER_TOKEN.exec(authorization)?.[1];
      const caller = bearer === undefined ? undefined : await app.services.apiTokens.authenticate(bearer);
      if (!caller) throw invalidToken(reply);
      request.session = caller;
      return;
    }
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 128) return;
    const resolved = await app.services.auth.resolve(token);
    request.session = resolved?.actor ?? null;
    if (resolved?.refreshed) setSessionCookie(reply, token, opts);
  });
});
