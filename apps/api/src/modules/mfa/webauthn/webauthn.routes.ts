import {
  SecurityKeyParamsSchema,
  SecurityKeySchema,
  UsernameParamsSchema,
  WebauthnFinishBodySchema,
  WebauthnOptionsSchema,
  WebauthnSignInBodySchema,
  LoginSuccessSchema,
} from '@palisade/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { relyingPartyOf, WebauthnService } from './webauthn.service.js';

export interface WebauthnRoutesOptions {
  db: Db;
  publicUrl: string | undefined;
}

const RegisteredKeySchema = z
  .object({ key: SecurityKeySchema, recovery_codes: z.array(z.string()).optional() })
  .meta({ id: 'SecurityKeyRegistered' });

/** Security keys / passkeys (issue 10 §2 WebAuthn). */
export const webauthnRoutes: FastifyPluginAsyncZod<WebauthnRoutesOptions> = async (app, { db, publicUrl }) => {
  const tags = ['mfa'];
  const service = new WebauthnService(db, app.mfa);
  const rp = (request: FastifyRequest) => relyingPartyOf(publicUrl, `${request.protocol}://${request.host}`);

  app.post(
    '/api/v1/auth/webauthn/init',
    {
      schema: {
        tags,
        summary: 'Security key registration options (a new challenge)',
        response: { 200: WebauthnOptionsSchema, ...problems(401) },
      },
    },
    (request) => service.registrationOptions(actorOf(request), rp(request)),
  );

  app.post(
    '/api/v1/auth/webauthn/finish',
    {
      schema: {
        tags,
        summary: 'Register a security key (enables the security key method)',
        body: WebauthnFinishBodySchema,
        response: { 201: RegisteredKeySchema, ...problems(400, 401, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.finishRegistration(actorOf(request), request.body, rp(request))),
  );

  app.post(
    '/api/v1/auth/webauthn/start',
    { schema: { tags, summary: 'Security key sign-in options (pending MFA)', response: { 200: WebauthnOptionsSchema, ...problems(401) } } },
    (request) => service.authenticationOptions(app.mfa.pendingUser(request), rp(request)),
  );

  app.post(
    '/api/v1/auth/webauthn',
    {
      schema: {
        tags,
        summary: 'Second sign-in step with a security key',
        body: WebauthnSignInBodySchema,
        response: { 200: LoginSuccessSchema, ...problems(400, 401, 429) },
      },
    },
    (request, reply) =>
      app.mfa.verifyPendingStep(request, reply, 'webauthn', (pending) =>
        service.checkAssertion(pending, request.body.response, rp(request)),
      ),
  );

  app.get(
    '/api/v1/user/:username/security_key',
    {
      schema: {
        tags,
        summary: "A user's security keys",
        params: UsernameParamsSchema,
        response: { 200: z.array(SecurityKeySchema), ...problems(401, 403, 404) },
      },
    },
    (request) => service.list(request.params.username),
  );

  app.delete(
    '/api/v1/user/:username/security_key/:keyId',
    {
      schema: {
        tags,
        summary: 'Delete a security key (the last one disables the method)',
        params: SecurityKeyParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.remove(actorOf(request), request.params.username, request.params.keyId);
      return reply.code(204).send(null);
    },
  );
};
