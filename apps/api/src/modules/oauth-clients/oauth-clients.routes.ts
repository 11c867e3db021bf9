import {
  CreateOAuthClientBodySchema,
  OAuthClientIdParamsSchema,
  OAuthClientListSchema,
  OAuthClientSchema,
  OAuthClientSecretSchema,
  OAuthClientStateBodySchema,
  OAuthClientWithSecretSchema,
  UpdateOAuthClientBodySchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { type OAuthClientDeletedHook, OAuthClientsService } from './oauth-clients.service.js';

export interface OAuthClientsRoutesOptions {
  db: Db;
  /** Seals client secrets at rest (the instance key; the OIDC provider opens them with the same). */
  secrets: SecretBox;
  /** In the deleting transaction: removes the provider's grants, codes and tokens of the app. */
  onAppDeleted: OAuthClientDeletedHook;
}

/** OpenID apps (OAuth clients), admin only, module `openid` (docs/openid.md). `id` is the client ID. */
export const oauthClientsRoutes: FastifyPluginAsyncZod<OAuthClientsRoutesOptions> = async (app, options) => {
  const tags = ['openid'];
  const apps = new OAuthClientsService(options.db, options.secrets, options.onAppDeleted);

  app.get(
    '/api/v1/oauth',
    {
      schema: {
        tags,
        summary: 'List OpenID apps (never their secrets)',
        response: { 200: OAuthClientListSchema, ...problems(401, 403, 404) },
      },
    },
    () => apps.list(),
  );

  app.post(
    '/api/v1/oauth',
    {
      schema: {
        tags,
        summary: 'Register an OpenID app (a confidential app gets its client secret in this answer)',
        body: CreateOAuthClientBodySchema,
        response: { 201: OAuthClientWithSecretSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await apps.create(actorOf(request), request.body)),
  );

  app.get(
    '/api/v1/oauth/:id',
    {
      schema: {
        tags,
        summary: 'An OpenID app',
        params: OAuthClientIdParamsSchema,
        response: { 200: OAuthClientSchema, ...problems(401, 403, 404) },
      },
    },
    (request) => apps.get(request.params.id),
  );

  app.put(
    '/api/v1/oauth/:id',
    {
      schema: {
        tags,
        summary: 'Change an OpenID app (turning a public app confidential answers its new secret once)',
        params: OAuthClientIdParamsSchema,
        body: UpdateOAuthClientBodySchema,
        response: { 200: OAuthClientWithSecretSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await apps.update(actorOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/v1/oauth/:id',
    {
      schema: {
        tags,
        summary: 'Enable or disable an OpenID app (a disabled app is refused at once)',
        params: OAuthClientIdParamsSchema,
        body: OAuthClientStateBodySchema,
        response: { 200: OAuthClientSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => apps.setEnabled(actorOf(request), request.params.id, request.body.enabled),
  );

  app.delete(
    '/api/v1/oauth/:id',
    {
      schema: {
        tags,
        summary: 'Delete an OpenID app',
        params: OAuthClientIdParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await apps.delete(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/oauth/:id/secret',
    {
      schema: {
        tags,
        summary: "Show an app's client secret (recorded in the activity log)",
        params: OAuthClientIdParamsSchema,
        response: { 200: OAuthClientSecretSchema, ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await apps.revealSecret(actorOf(request), request.params.id)),
  );

  app.post(
    '/api/v1/oauth/:id/secret',
    {
      schema: {
        tags,
        summary: 'Generate a new client secret (the old one stops working at once)',
        params: OAuthClientIdParamsSchema,
        response: { 200: OAuthClientSecretSchema, ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await apps.regenerateSecret(actorOf(request), request.params.id)),
  );
};
