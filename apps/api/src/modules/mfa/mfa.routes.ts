import {
  LoginSuccessSchema,
  MfaCodeBodySchema,
  MfaDefaultBodySchema,
  MfaDisableBodySchema,
  MfaEnabledSchema,
  MfaStatusSchema,
  RecoveryCodeBodySchema,
  RecoveryCodesSchema,
  TotpInitSchema,
  UsernameParamsSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { MfaService } from './mfa.service.js';
import { TotpService } from './totp.service.js';

export interface MfaRoutesOptions {
  db: Db;
  secrets: SecretBox;
}

/**
 * TOTP, recovery codes and the MFA switch (issue 10 §2, §3). The sign-in steps
 * (`/auth/totp/verify`, `/auth/recovery`) take only a pending-MFA session (access `mfa_pending`).
 */
export const mfaRoutes: FastifyPluginAsyncZod<MfaRoutesOptions> = async (app, options) => {
  const tags = ['auth'];
  const instanceName = async () => (await app.services.settings.get()).instance_name;
  const totp = new TotpService(options.db, options.secrets, app.mfa, instanceName);
  const mfa = new MfaService(options.db, app.mfa, totp);
  const step = { 200: LoginSuccessSchema, ...problems(400, 401, 429) };

  app.post(
    '/api/v1/auth/totp/init',
    {
      schema: {
        tags,
        summary: 'Start setting up an authenticator app: a new secret and its otpauth:// URI (not enabled yet)',
        response: { 200: TotpInitSchema, ...problems(401, 409) },
      },
    },
    (request) => totp.init(actorOf(request)),
  );

  app.post(
    '/api/v1/auth/totp',
    {
      schema: {
        tags,
        summary: 'Enable the authenticator app with a first valid code (the first method also returns recovery codes, once)',
        body: MfaCodeBodySchema,
        response: { 200: MfaEnabledSchema, ...problems(400, 401, 409) },
      },
    },
    (request) => totp.enable(actorOf(request), request.body.code),
  );

  app.post(
    '/api/v1/auth/totp/verify',
    { schema: { tags, summary: 'MFA sign-in step with an authenticator app code', body: MfaCodeBodySchema, response: step } },
    (request, reply) => app.mfa.verifyPendingStep(request, reply, 'totp', (user) => totp.signInStep(user.totp, request.body.code)),
  );

  app.delete(
    '/api/v1/auth/totp',
    { schema: { tags, summary: 'Disable the authenticator app', response: { 204: z.null(), ...problems(401) } } },
    async (request, reply) => {
      await totp.disable(actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/auth/recovery',
    { schema: { tags, summary: 'MFA sign-in step with a recovery code (each works once)', body: RecoveryCodeBodySchema, response: step } },
    (request, reply) =>
      app.mfa.verifyPendingStep(request, reply, 'recovery', (user) => app.mfa.useRecoveryCode(options.db, user.userId, request.body.code)),
  );

  app.post(
    '/api/v1/auth/recovery/codes',
    {
      schema: {
        tags,
        summary: 'Replace the recovery codes with 10 new ones (shown once)',
        response: { 200: RecoveryCodesSchema, ...problems(400, 401) },
      },
    },
    (request) => mfa.regenerateRecoveryCodes(actorOf(request)),
  );

  app.get(
    '/api/v1/auth/mfa',
    { schema: { tags, summary: 'The signed-in user’s MFA methods', response: { 200: MfaStatusSchema, ...problems(401) } } },
    (request) => mfa.status(actorOf(request).userId),
  );

  app.put(
    '/api/v1/auth/mfa',
    {
      schema: {
        tags,
        summary: 'Turn MFA on with the given default method (one of the enabled methods)',
        body: MfaDefaultBodySchema,
        response: { 200: MfaStatusSchema, ...problems(400, 401) },
      },
    },
    (request) => mfa.setDefault(actorOf(request), request.body.default_method),
  );

  app.delete(
    '/api/v1/auth/mfa',
    {
      schema: {
        tags,
        summary: 'Turn MFA off (every method and the recovery codes); needs the password or a fresh authenticator code',
        body: MfaDisableBodySchema,
        response: { 204: z.null(), ...problems(400, 401) },
      },
    },
    async (request, reply) => {
      await mfa.disable(actorOf(request), request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v1/user/:username/mfa',
    {
      schema: {
        tags: ['users'],
        summary: 'Reset a user’s MFA (admin): every method and the recovery codes are removed',
        params: UsernameParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await mfa.reset(actorOf(request), request.params.username);
      return reply.code(204).send(null);
    },
  );
};
