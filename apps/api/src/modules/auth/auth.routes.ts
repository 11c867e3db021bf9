import { InfoSchema, LoginBodySchema, LoginSuccessSchema, MfaRequiredSchema, UserSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { originOf } from '#src/modules/events/event-actor.js';
import { APP_VERSION } from '#src/lib/route-schemas.js';
import { actorOf, clearSessionCookie, SESSION_COOKIE, type SessionCookieOptions, setSessionCookie } from '#src/plugins/session.js';

/** The session cookie's options, the same the session plugin re-sends the cookie with. */
export const authRoutes: FastifyPluginAsyncZod<SessionCookieOptions> = async (app, cookie) => {
  const tags = ['auth'];

  app.post(
    '/api/v1/auth',
    {
      schema: {
        tags,
        summary: 'Log in with username (or email) and password',
        body: LoginBodySchema,
        response: { 200: LoginSuccessSchema, 201: MfaRequiredSchema, ...problems(400, 401, 429, 503) },
      },
    },
    async (request, reply) => {
      const result = await app.services.auth.login(request.body.username, request.body.password, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousToken: request.cookies[SESSION_COOKIE],
      });
      setSessionCookie(reply, result.token, cookie);
      if (result.kind === 'mfa') return reply.code(201).send(result.body);
      return reply.code(200).send(result.body);
    },
  );

  app.post(
    '/api/v1/auth/logout',
    { schema: { tags, summary: 'End the current session', response: { 204: z.null() } } },
    async (request, reply) => {
      await app.services.auth.logout(request.cookies[SESSION_COOKIE], originOf(request));
      clearSessionCookie(reply, cookie.secure);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/me',
    { schema: { tags, summary: 'The signed-in user', response: { 200: UserSchema, ...problems(401) } } },
    async (request) => {
      const me = await app.services.users.getById(actorOf(request).userId);
      if (!me) throw new Error('session user missing');
      return me;
    },
  );

  app.get(
    '/api/v1/info',
    { schema: { tags: ['system'], summary: 'Application information', response: { 200: InfoSchema, ...problems(401) } } },
    async () => ({
      version: APP_VERSION,
      network_present: await app.services.networks.isAnyPresent(),
      smtp_enabled: await app.services.settings.isSmtpEnabled(),
    }),
  );
};
