import { SupportConfigurationSchema, SupportLogsTextSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '#src/db/client.js';
import type { LogRing } from '#src/lib/log-ring.js';
import { HttpProblem } from '#src/lib/problem.js';
import { APP_VERSION, problems } from '#src/lib/route-schemas.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { actorOf } from '#src/plugins/session.js';
import { SupportService } from './support.service.js';

export interface SupportRoutesOptions {
  database: DatabaseHandle;
  logs: LogRing;
  /** Env SUPPORT_EMAIL: where POST /mail/support sends (docs/support.md). */
  supportEmail: string | undefined;
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');

const noAddress = () =>
  new HttpProblem(400, 'support.email_not_configured', 'No support address is configured: set SUPPORT_EMAIL (docs/support.md).');

export const supportRoutes: FastifyPluginAsyncZod<SupportRoutesOptions> = async (app, { database, logs, supportEmail }) => {
  const service = new SupportService(database, logs, supportEmail);

  app.get(
    '/api/v1/support/configuration',
    {
      schema: {
        tags: ['support'],
        summary: 'Support data: versions, database, settings (secrets redacted), counts, gateways',
        description: 'A JSON download (Content-Disposition: attachment). Every secret is replaced by `[redacted]` (docs/support.md).',
        response: { 200: SupportConfigurationSchema, ...problems(401, 403) },
      },
    },
    async (_request, reply) => {
      const data = await service.configuration(await app.services.settings.moduleFlags());
      return reply
        .header('content-disposition', `attachment; filename="palisade-support-${stamp()}.json"`)
        .header('cache-control', 'no-store')
        .send(data);
    },
  );

  app.get(
    '/api/v1/support/logs',
    {
      schema: {
        tags: ['support'],
        summary: "The API process's last log lines, redacted (text/plain download)",
        description: 'At most 2,000 lines from memory, oldest first; empty after a restart (docs/support.md).',
        response: {
          200: { description: 'Log lines', content: { 'text/plain': { schema: SupportLogsTextSchema } } },
          ...problems(401, 403),
        },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="palisade-logs-${stamp()}.txt"`)
        .header('cache-control', 'no-store')
        .send(service.logText()),
  );

  app.post(
    '/api/v1/mail/support',
    {
      schema: {
        tags: ['support'],
        summary: 'Email the support data and logs to the support address',
        description:
          'Sends both downloads as attachments to SUPPORT_EMAIL and waits for the SMTP server. 400 `support.email_not_configured` without an address; 400 `mail.not_configured` when SMTP is not configured; 400 `mail.send_failed` ("Error sending email: <the server\'s reason>") when the server refuses.',
        response: { 204: z.null(), ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const to = service.address;
      if (!to) throw noAddress();
      const data = await service.configuration(await app.services.settings.moduleFlags());
      const day = stamp();
      await app.services.mail.sendNow({ to, template: 'support', data: { admin: actor.username, version: APP_VERSION } }, [
        { filename: `palisade-support-${day}.json`, content: `${JSON.stringify(data, null, 2)}\n`, contentType: 'application/json' },
        { filename: `palisade-logs-${day}.txt`, content: service.logText(), contentType: 'text/plain; charset=utf-8' },
      ]);
      await recordEvent(database.db, { type: 'mail.support_sent', actor: userActor(actor), object: { type: 'settings' }, details: { to } });
      return reply.code(204).send(null);
    },
  );
};
