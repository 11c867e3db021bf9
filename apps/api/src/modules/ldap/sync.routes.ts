import { LdapSyncBodySchema, LdapSyncResultSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userActor } from '#src/modules/events/event-actor.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import type { LdapSyncService } from './sync.service.js';

/** `POST /ldap/sync`: an LDAP sync run now, or its preview (docs/ldap.md → Sync). */
export const ldapSyncRoutes: FastifyPluginAsyncZod<{ service: LdapSyncService }> = async (app, { service }) => {
  app.post(
    '/api/v1/ldap/sync',
    {
      schema: {
        tags: ['ldap'],
        summary: 'Run an LDAP sync now (or, with dry_run, list the changes it would make)',
        body: LdapSyncBodySchema,
        response: { 200: LdapSyncResultSchema, ...problems(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { ldapWrites: _, ...result } = await service.run(userActor(actorOf(request)), { dryRun: request.body.dry_run ?? false });
      return result;
    },
  );
};
