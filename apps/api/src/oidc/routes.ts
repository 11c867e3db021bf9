import {
  OauthAuthorizeQuerySchema,
  OauthAuthorizeSchema,
  OpenidKeysRotateBodySchema,
  OpenidKeysRotatedSchema,
  OpenidVerifyBodySchema,
  OpenidVerifySchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { problems } from '#src/lib/route-schemas.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { actorOf } from '#src/plugins/session.js';
import { findClientMetadata } from './clients.js';
import type { OidcHost } from './host.js';
import { denyInteraction, finishInteraction, type Interaction, promptForced, requestedScopes } from './interactions.js';
import { withArtifactTransaction } from './provider.repo.js';
import { rotateSigningKeys } from './signing-keys.js';

const notFound = () =>
  new HttpProblem(404, 'openid.interaction_not_found', 'This sign-in request has expired or was started in another browser.');

/**
 * The waiting interaction of this browser: the provider's interaction cookie (path /api/v1, signed)
 * must name the same interaction as the request, so a uid alone, copied to another browser, is
 * worth nothing (ADR-006).
 */
async function boundInteraction(host: OidcHost, raw: { req: never; res: never }, uid: string): Promise<Interaction> {
  const provider = await host.provider();
  let interaction: Interaction;
  try {
    interaction = await provider.interactionDetails(raw.req, raw.res);
  } catch {
    throw notFound();
  }
  if (interaction.uid !== uid) throw notFound();
  return interaction;
}

/** `POST /openid/verify` and `POST /oauth/authorize`: the API side of the console's consent page. */
export const openidInteractionRoutes: FastifyPluginAsyncZod<{ host: OidcHost; db: Db; secrets: SecretBox }> = async (
  app,
  { host, db, secrets },
) => {
  const tags = ['openid'];

  app.post(
    '/api/v1/openid/verify',
    {
      schema: {
        tags,
        summary: 'What the waiting OpenID authorization of this browser asks for (the consent page)',
        body: OpenidVerifyBodySchema,
        response: { 200: OpenidVerifySchema, ...problems(400, 404) },
      },
    },
    async (request, reply) => {
      const interaction = await boundInteraction(host, { req: request.raw as never, res: reply.raw as never }, request.body.interaction);
      const clientId = String(interaction.params.client_id);
      const client = await findClientMetadata(db, secrets, clientId);
      if (!client) throw notFound();
      return {
        client: { name: String(client.client_name ?? clientId), client_id: clientId },
        scopes: requestedScopes(interaction),
        login_required: request.session?.state !== 'active' || promptForced(interaction).login,
      };
    },
  );

  app.post(
    '/api/v1/oauth/authorize',
    {
      schema: {
        tags,
        summary: "Record the signed-in user's decision on an OpenID authorization (empty body)",
        querystring: OauthAuthorizeQuerySchema,
        response: { 200: OauthAuthorizeSchema, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { interaction: uid, allow } = request.query;
      const interaction = await boundInteraction(host, { req: request.raw as never, res: reply.raw as never }, uid);
      const clientId = String(interaction.params.client_id);
      const client = await findClientMetadata(db, secrets, clientId);
      if (!client) throw notFound();
      const provider = await host.provider();
      const object = { type: 'oauth_app', id: clientId, name: String(client.client_name ?? clientId) };
      // The decision (grant, interaction result) commits with its event, or not at all.
      const finished = await db.transaction(async (raw) => {
        const tx = raw as unknown as Db;
        return withArtifactTransaction(tx, async () => {
          if (allow === 'false') {
            const url = await denyInteraction(interaction);
            await recordEvent(tx, { type: 'oauth_app.access_denied', actor: userActor(actor), object });
            return { url };
          }
          const done = await finishInteraction(provider, tx, interaction, {
            userId: actor.userId,
            mfaPassed: request.session?.mfaPassed === true,
          });
          if (!done) return undefined;
          await recordEvent(tx, { type: 'oauth_app.authorized', actor: userActor(actor), object, details: { scopes: done.scopes } });
          return { url: done.url };
        });
      });
      if (!finished) throw notFound();
      return finished;
    },
  );

  app.post(
    '/api/v1/openid/keys/rotate',
    {
      schema: {
        tags,
        summary: "Rotate the provider's signing keys: new keys published now, signing after publish_ahead_hours",
        body: OpenidKeysRotateBodySchema,
        response: { 200: OpenidKeysRotatedSchema, ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const hours = request.body.publish_ahead_hours;
      const rotated = await rotateSigningKeys(db, secrets, hours * 3600);
      // This replica serves the new key set at once; the others within a minute (OidcHost).
      await host.reloadKeys();
      await recordEvent(db, {
        type: 'openid.signing_keys_rotated',
        actor: userActor(actorOf(request)),
        object: { type: 'settings' },
        details: { kids: rotated.kids, activates_at: rotated.activatesAt.toISOString() },
      });
      return { kids: rotated.kids, activates_at: rotated.activatesAt.toISOString() };
    },
  );
};
