import {
  VpnSessionChallengeSchema,
  VpnSessionFinishBodySchema,
  VpnSessionIdParamsSchema,
  VpnSessionSchema,
  VpnSessionStartBodySchema,
  VpnSessionStartedSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { problems } from '#src/lib/route-schemas.js';
import { EmailCodeService } from '#src/modules/mfa/email/email-code.service.js';
import { TotpService } from '#src/modules/mfa/totp.service.js';
import { relyingPartyOf, WebauthnService } from '#src/modules/mfa/webauthn/webauthn.service.js';
import { actorOf } from '#src/plugins/session.js';
import { VpnSessionsService } from './vpn-sessions.service.js';

export interface VpnSessionsRoutesOptions {
  db: Db;
  secrets: SecretBox;
  /** The console's origin: the security keys' relying party (as for the sign-in). */
  publicUrl: string | undefined;
}

/** VPN sessions of MFA-protected locations (docs/mfa.md): what the console's "Connect" and a desktop client call. */
export const vpnSessionsRoutes: FastifyPluginAsyncZod<VpnSessionsRoutesOptions> = async (app, options) => {
  const tags = ['vpn sessions'];
  const { db, secrets } = options;
  const sessions = new VpnSessionsService(db, secrets, {
    core: app.mfa,
    totp: new TotpService(db, secrets, app.mfa, async () => 'Palisade'),
    email: new EmailCodeService(db, secrets, app.mfa, app.services.mail),
    webauthn: new WebauthnService(db, app.mfa),
  });
  const rp = (request: FastifyRequest) => relyingPartyOf(options.publicUrl, `${request.protocol}://${request.host}`);

  app.post(
    '/api/v1/vpn_session/start',
    {
      schema: {
        tags,
        summary: 'Start a VPN session of an MFA-protected location for one of your devices: a challenge for your second factor',
        description:
          'The device (by its WireGuard public key) must be yours and hold an address in the location. `method` (optional) chooses the second factor among your enabled ones (`totp`, `email`, `webauthn`); without it your default method. `email` mails a 6-digit code (at most every 30 seconds); `webauthn` answers the assertion options in `webauthn`. Finish within 5 minutes with `POST /vpn_session/finish`.',
        body: VpnSessionStartBodySchema,
        response: { 201: VpnSessionChallengeSchema, ...problems(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await sessions.start(actorOf(request), request.body, rp(request))),
  );

  app.post(
    '/api/v1/vpn_session/finish',
    {
      schema: {
        tags,
        summary: 'Finish the MFA of a VPN session: the session and its preshared key, returned this once',
        description:
          'Send `code` (6 digits) for a `totp` or `email` challenge, `credential` (the WebAuthn assertion JSON) for a `webauthn` one. A valid answer starts the session: the device peer, with this preshared key, is sent to the location gateways. A wrong answer counts against the sign-in lockout (429 when locked). The WireGuard client adds the key as the preshared key of the location peer.',
        body: VpnSessionFinishBodySchema,
        response: { 201: VpnSessionStartedSchema, ...problems(400, 401, 403, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await sessions.finish(actorOf(request), request.body, rp(request))),
  );

  app.get(
    '/api/v1/vpn_session',
    {
      schema: {
        tags,
        summary: 'Your VPN sessions of MFA-protected locations (active first, at most 100)',
        response: { 200: z.array(VpnSessionSchema), ...problems(401, 403) },
      },
    },
    (request) => sessions.list(actorOf(request)),
  );

  app.delete(
    '/api/v1/vpn_session/:id',
    {
      schema: {
        tags,
        summary: 'Disconnect a VPN session (yours; admins: anyone’s): the peer leaves the location gateways',
        params: VpnSessionIdParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await sessions.end(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
