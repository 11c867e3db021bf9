import { EnterpriseInfoSchema, SetLicenceBodySchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import type { LicenceService } from './licence.service.js';

/** Licence and enterprise state (docs/licensing.md). None of these routes is gated by the licence. */
export const licenceRoutes: FastifyPluginAsyncZod<{ licence: LicenceService }> = async (app, { licence }) => {
  const tags = ['licence'];

  app.get(
    '/api/v1/enterprise_info',
    {
      schema: {
        tags,
        summary: 'Licence, its state, usage against the limits, and whether enterprise features work',
        response: { 200: EnterpriseInfoSchema, ...problems(401, 403) },
      },
    },
    () => licence.refresh(),
  );

  app.put(
    '/api/v1/licence',
    {
      schema: {
        tags,
        summary: 'Enter or replace the licence key (stored only when its signature verifies)',
        body: SetLicenceBodySchema,
        response: { 200: EnterpriseInfoSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => licence.set(actorOf(request), request.body.licence_key),
  );

  app.delete(
    '/api/v1/licence',
    {
      schema: {
        tags,
        summary: 'Remove the licence key (the free limits apply again)',
        response: { 200: EnterpriseInfoSchema, ...problems(401, 403) },
      },
    },
    (request) => licence.remove(actorOf(request)),
  );
};
