import {
  ActivityFeedQuerySchema,
  ActivityFeedSchema,
  ActivityLogExportQuerySchema,
  ActivityLogPageSchema,
  ActivityLogQuerySchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { ActivityLogService } from './activity-log.service.js';

export interface ActivityLogRoutesOptions {
  db: Db;
}

const ExportTextSchema = z.string().describe('The entries as CSV (header row, RFC 4180) or JSON lines');

export const activityLogRoutes: FastifyPluginAsyncZod<ActivityLogRoutesOptions> = async (app, options) => {
  const tags = ['activity log'];
  const service = new ActivityLogService(options.db, app.eventSignal);

  app.get(
    '/api/v1/activity_log',
    {
      schema: {
        tags,
        summary: 'Activity log entries (paged, filtered; admins see all, others their own and those about them)',
        querystring: ActivityLogQuerySchema,
        response: { 200: ActivityLogPageSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/api/v1/activity_log/feed',
    {
      schema: {
        tags,
        summary: 'The live activity stream: entries after a cursor (wait=1 long-polls up to 25 s)',
        querystring: ActivityFeedQuerySchema,
        response: { 200: ActivityFeedSchema, ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => {
      // The response's 'close' also fires when the client goes away mid-wait.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return service.feed(actorOf(request), request.query, gone.signal);
    },
  );

  app.get(
    '/api/v1/activity_log/export',
    {
      schema: {
        tags,
        summary: 'Export the filtered activity log as CSV or JSON lines (streamed, at most 1,000,000 entries)',
        querystring: ActivityLogExportQuerySchema,
        response: {
          200: {
            description: 'The entries, as an attachment',
            content: { 'text/csv': { schema: ExportTextSchema }, 'application/x-ndjson': { schema: ExportTextSchema } },
          },
          ...problems(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const file = await service.export(actorOf(request), request.query);
      return (
        reply
          .type(file.contentType)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          // A stream: the declared text body, sent page by page (the type provider only knows strings).
          .send(file.body as unknown as string)
      );
    },
  );
};
