import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionActor } from '#src/modules/auth/sessions.repo.js';
import { originOf } from '#src/modules/events/event-actor.js';
import type { Actor } from '#src/modules/users/users.service.js';

export const SESSION_COOKIE = 'palisade_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller (any session state), or null. */
    session: SessionActor | null;
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

/**
 * Resolves the session cookie to `request.session` for API requests. When the session's sliding
 * expiry moves forward, the cookie is sent again with a full lifetime, so the browser keeps it as
 * long as the server does.
 */
export const sessionPlugin = fp(async (app: FastifyInstance, opts: SessionCookieOptions) => {
  app.decorateRequest('session', null);
  app.decorateRequest('issuedSessionToken', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 128) return;
    const resolved = await app.services.auth.resolve(token);
    request.session = resolved?.actor ?? null;
    if (resolved?.refreshed) setSessionCookie(reply, token, opts);
  });
});
