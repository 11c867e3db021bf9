import { AclCheckQuerySchema, AclCheckResultSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { AclCheckService } from './check.service.js';

export interface AclCheckRoutesOptions {
  db: Db;
}

/** `GET /acl/check`: the access check (docs/acl.md); enterprise-only (spec §6), admins only. */
export const aclCheckRoutes: FastifyPluginAsyncZod<AclCheckRoutesOptions> = async (app, options) => {
  const service = new AclCheckService(options.db);
  app.get(
    '/api/v1/acl/check',
    {
      schema: {
        tags: ['acl'],
        summary: 'Would traffic from a user or device to an address, port and protocol pass the deployed ACL of a location?',
        querystring: AclCheckQuerySchema,
        response: { 200: AclCheckResultSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.check(request.query),
  );
};
