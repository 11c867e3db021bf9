import { LoginSuccessSchema, MfaCodeBodySchema, MfaEnabledSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { EmailCodeService } from './email-code.service.js';

export interface EmailCodeRoutesOptions {
  db: Db;
  secrets: SecretBox;
}

/** Email codes (issue 10 §2 Email). */
export const emailCodeRoutes: FastifyPluginAsyncZod<EmailCodeRoutesOptions> = async (app, { db, secrets }) => {
  const tags = ['mfa'];
  const service = new EmailCodeService(db, secrets, app.mfa, app.services.mail);

  app.post(
    '/api/v1/auth/email/init',
    { schema: { tags, summary: 'Email a code to enable email codes', response: { 204: z.null(), ...problems(400, 401, 409, 429) } } },
    async (request, reply) => {
      await service.sendEnableCode(actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/auth/email',
    {
      schema: {
        tags,
        summary: 'Enable email codes with the emailed code',
        body: MfaCodeBodySchema,
        response: { 200: MfaEnabledSchema, ...problems(400, 401) },
      },
    },
    (request) => service.enable(actorOf(request), request.body.code),
  );

  app.get(
    '/api/v1/auth/email',
    {
      schema: {
        tags,
        summary: 'Email a sign-in code (pending MFA; at most every 30 seconds)',
        response: { 204: z.null(), ...problems(400, 401, 429) },
      },
    },
    async (request, reply) => {
      await service.sendSignInCode(request);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/auth/email/verify',
    {
      schema: {
        tags,
        summary: 'Second sign-in step with an emailed code',
        body: MfaCodeBodySchema,
        response: { 200: LoginSuccessSchema, ...problems(400, 401, 429) },
      },
    },
    (request, reply) => service.verify(request, reply, request.body.code),
  );

  app.delete(
    '/api/v1/auth/email',
    { schema: { tags, summary: 'Disable email codes', response: { 204: z.null(), ...problems(401) } } },
    async (request, reply) => {
      await service.disable(actorOf(request));
      return reply.code(204).send(null);
    },
  );
};
