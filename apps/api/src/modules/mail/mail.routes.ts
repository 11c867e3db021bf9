import { MailTestBodySchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { actorOf } from '#src/plugins/session.js';
import type { Db } from '#src/db/client.js';

export const mailRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/api/v1/mail/test',
    {
      schema: {
        tags: ['settings'],
        summary: 'Send a test email now',
        description:
          'Sends a test email to `to` with the SMTP settings and waits for the server. 400 `mail.not_configured` when SMTP is not configured; 400 `mail.send_failed` ("Error sending email: <the server\'s reason>") when the server refuses or cannot be reached.',
        body: MailTestBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const settings = await app.services.settings.get();
      await app.services.mail.sendNow({ to: request.body.to, template: 'test', locale: request.body.locale });
      await recordEvent(db, {
        type: 'mail.test_sent',
        actor: userActor(actor),
        object: { type: 'settings' },
        details: { to: request.body.to, server: settings.smtp_server },
      });
      return reply.code(204).send(null);
    },
  );
};
