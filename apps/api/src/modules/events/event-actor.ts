import type { FastifyRequest } from 'fastify';

/**
 * Who caused an event. A signed-in user carries the request's client IP and user agent; the
 * login routes record `anonymous` with them; jobs record `system`; a gateway its own identity.
 */
export type EventActor =
  | { type: 'user'; userId: number; username: string; ip?: string | undefined; userAgent?: string | undefined }
  | { type: 'anonymous'; ip?: string | undefined; userAgent?: string | undefined }
  | { type: 'system' }
  | { type: 'gateway'; name: string; ip?: string | undefined };

export const SYSTEM_ACTOR: EventActor = { type: 'system' };

/** Where a request came from, as the activity log keeps it (user agent cut to 512 characters). */
export interface RequestOrigin {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export function originOf(request: FastifyRequest): RequestOrigin {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' && ua !== '' ? ua.slice(0, 512) : undefined };
}

/** The users.service `Actor` shape (a signed-in user, with the request origin when there is one). */
export interface SignedInActor extends RequestOrigin {
  userId: number;
  username: string;
}

export const userActor = (actor: SignedInActor): EventActor => ({
  type: 'user',
  userId: actor.userId,
  username: actor.username,
  ip: actor.ip,
  userAgent: actor.userAgent,
});

export const anonymousActor = (origin: RequestOrigin): EventActor => ({ type: 'anonymous', ...origin });
