import { AuthorizedAppParamsSchema, AuthorizedAppSchema, UsernameParamsSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { AuthorizedAppsService } from './authorized-apps.service.js';

/** `GET /oauth/apps/{username}` and `DELETE /user/{username}/oauth_app/{client_id}` (docs/openid.md). */
export const authorizedAppsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const service = new AuthorizedAppsService(db);
  const tags = ['openid'];

  app.get(
    '/api/v1/oauth/apps/:username',
    {
      schema: {
        tags,
        summary: 'The OpenID apps a user authorized to sign them in',
        params: UsernameParamsSchema,
        response: { 200: z.array(AuthorizedAppSchema), ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.list(request.params.username),
  );

  app.delete(
    '/api/v1/user/:username/oauth_app/:client_id',
    {
      schema: {
        tags,
        summary: "Revoke a user's authorization of an app: its consent, codes, access and refresh tokens end at once",
        params: AuthorizedAppParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.revoke(actorOf(request), request.params.username, request.params.client_id);
      return reply.code(204).send(null);
    },
  );
};
