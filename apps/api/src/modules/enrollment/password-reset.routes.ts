import {
  AdminPasswordResetBodySchema,
  PasswordResetFinishBodySchema,
  PasswordResetInfoSchema,
  PasswordResetRequestBodySchema,
  PasswordResetSentSchema,
  PasswordResetStartBodySchema,
  UsernameParamsSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { originOf } from '#src/modules/events/event-actor.js';
import { actorOf } from '#src/plugins/session.js';
import { baseUrlOf } from './enrollment.routes.js';
import { PasswordResetService } from './password-reset.service.js';

/** Password reset (docs/enrollment.md): the admin's route and the public request / redemption. */
export const passwordResetRoutes: FastifyPluginAsyncZod<{ db: Db; publicUrl: string | undefined }> = async (app, { db, publicUrl }) => {
  const service = new PasswordResetService(db, app.services.mail, app.services.users.ldapPasswords);
  const tags = ['enrollment'];

  app.post(
    '/api/v1/user/:username/reset_password',
    {
      schema: {
        tags,
        summary: 'Email the user a password reset link (valid 1 hour, once)',
        description: '400 `mail.not_configured` without SMTP, 400 `mail.send_failed` when the server refuses (no link stays valid then).',
        params: UsernameParamsSchema,
        body: AdminPasswordResetBodySchema,
        response: { 200: PasswordResetSentSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => service.sendByAdmin(actorOf(request), request.params.username, request.body.locale, baseUrlOf(publicUrl, request)),
  );

  app.post(
    '/api/v1/password_reset/request',
    {
      schema: {
        tags,
        summary: 'Ask for a password reset link by email ("Forgot password?")',
        description:
          'Always 202 with no body, whether or not an account has the address (nothing reveals it); the link goes out by the mail queue. 429 `request.rate_limited` per client address.',
        body: PasswordResetRequestBodySchema,
        response: { 202: z.null(), ...problems(400, 429) },
      },
    },
    async (request, reply) => {
      await service.request(request.body.email, request.body.locale, baseUrlOf(publicUrl, request), originOf(request));
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/api/v1/password_reset/start',
    {
      schema: {
        tags,
        summary: 'Check a password reset link (the token is not spent)',
        description: '400 `password_reset.token_invalid` for a wrong, expired, used or revoked token; 429 `request.rate_limited`.',
        body: PasswordResetStartBodySchema,
        response: { 200: PasswordResetInfoSchema, ...problems(400, 429) },
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.check(request.body.token, originOf(request))),
  );

  app.post(
    '/api/v1/password_reset/finish',
    {
      schema: {
        tags,
        summary: 'Set a new password with a reset link; the account is signed out everywhere',
        body: PasswordResetFinishBodySchema,
        response: { 204: z.null(), ...problems(400, 429) },
      },
    },
    async (request, reply) => {
      await service.finish(request.body.token, request.body.password, originOf(request));
      return reply.code(204).send(null);
    },
  );
};
