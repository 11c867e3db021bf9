import {
  CreateExternalProviderBodySchema,
  EXTERNAL_CALLBACK_PATH,
  ExternalAuthInfoSchema,
  ExternalCallbackBodySchema,
  ExternalProviderListSchema,
  ExternalProviderParamsSchema,
  ExternalProviderSchema,
  LoginSuccessSchema,
  MfaRequiredSchema,
  UpdateExternalProviderBodySchema,
} from '@palisade/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf, SESSION_COOKIE, type SessionCookieOptions, setSessionCookie } from '#src/plugins/session.js';
import { ExternalIdpService } from './external-idp.service.js';
import { ExternalLoginService, PENDING_TTL_MS } from './external-login.service.js';

export interface ExternalIdpRoutesOptions {
  db: Db;
  secrets: SecretBox;
  publicUrl: string | undefined;
  sessionCookie: SessionCookieOptions;
  /** The licence check (LicenceService): turning directory sync on needs enterprise features on. */
  enterpriseCheck?: () => void | Promise<void>;
}

/** The cookie that carries the sealed state, nonce and PKCE verifier between auth_info and callback. */
export const PENDING_COOKIE = 'palisade_external_login';
const PENDING_COOKIE_PATH = '/api/v1/openid';

/**
 * `/openid/provider`, `/openid/auth_info`, `/openid/callback` (spec §7; docs/external-openid.md):
 * the company's identity provider and sign-in with it.
 */
export const externalIdpRoutes: FastifyPluginAsyncZod<ExternalIdpRoutesOptions> = async (app, opts) => {
  const providers = new ExternalIdpService(opts.db, opts.secrets, opts.enterpriseCheck);
  const login = new ExternalLoginService(opts.db, opts.secrets, opts.sessionCookie.maxAgeSeconds * 1000);
  const tags = ['external_openid'];
  const redirectUri = (request: FastifyRequest) =>
    new URL(EXTERNAL_CALLBACK_PATH, opts.publicUrl ?? `${request.protocol}://${request.host}`).href;

  app.get(
    '/api/v1/openid/provider',
    {
      schema: {
        tags,
        summary: 'The external OpenID provider (secrets never returned) and the redirect URL to register at it',
        response: { 200: ExternalProviderListSchema, ...problems(401, 403) },
      },
    },
    async (request) => ({ provider: await providers.current(), redirect_url: redirectUri(request) }),
  );

  app.post(
    '/api/v1/openid/provider',
    {
      schema: {
        tags,
        summary: 'Configure the external OpenID provider (409 when one is configured: one at a time)',
        body: CreateExternalProviderBodySchema,
        response: { 201: ExternalProviderSchema, ...problems(400, 401, 402, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await providers.create(actorOf(request), request.body)),
  );

  app.put(
    '/api/v1/openid/provider/:name',
    {
      schema: {
        tags,
        summary: 'Change the external OpenID provider (absent secrets are kept, empty ones removed)',
        params: ExternalProviderParamsSchema,
        body: UpdateExternalProviderBodySchema,
        response: { 200: ExternalProviderSchema, ...problems(400, 401, 402, 403, 404, 409) },
      },
    },
    (request) => providers.update(actorOf(request), request.params.name, request.body),
  );

  app.delete(
    '/api/v1/openid/provider/:name',
    {
      schema: {
        tags,
        summary: 'Remove the external OpenID provider (linked identities are kept for a provider of the same name)',
        params: ExternalProviderParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await providers.delete(actorOf(request), request.params.name);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/openid/auth_info',
    {
      schema: {
        tags,
        summary: 'Start a sign-in with the external OpenID provider: the authorization URL and the button text',
        response: { 200: ExternalAuthInfoSchema, ...problems(400, 404) },
      },
    },
    async (request, reply) => {
      const { info, pending } = await login.authInfo(redirectUri(request));
      reply.setCookie(PENDING_COOKIE, pending, {
        path: PENDING_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: opts.sessionCookie.secure,
        maxAge: PENDING_TTL_MS / 1000,
      });
      return reply.header('cache-control', 'no-store').send(info);
    },
  );

  app.post(
    '/api/v1/openid/callback',
    {
      schema: {
        tags,
        summary: 'Complete a sign-in with the external OpenID provider (like POST /auth: 200 session, 201 MFA step)',
        body: ExternalCallbackBodySchema,
        response: { 200: LoginSuccessSchema, 201: MfaRequiredSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const pending = request.cookies[PENDING_COOKIE];
      // The pending authorization is single-use, whatever the outcome.
      reply.clearCookie(PENDING_COOKIE, { path: PENDING_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: opts.sessionCookie.secure });
      const ua = request.headers['user-agent'];
      const result = await login.callback(request.body, {
        ip: request.ip,
        userAgent: typeof ua === 'string' && ua !== '' ? ua.slice(0, 512) : undefined,
        previousToken: request.cookies[SESSION_COOKIE],
        redirectUri: redirectUri(request),
        pending: pending && pending.length <= 4096 ? pending : undefined,
      });
      setSessionCookie(reply, result.token, opts.sessionCookie);
      if (result.kind === 'mfa') return reply.code(201).send(result.body);
      const user = await app.services.users.getById(result.userId);
      if (!user) throw new Error('signed-in user missing');
      return reply.code(200).send({ user });
    },
  );
};
