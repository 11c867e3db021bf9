import {
  EnrollmentDeviceBodySchema,
  EnrollmentDeviceSchema,
  EnrollmentFinishBodySchema,
  EnrollmentFinishedSchema,
  EnrollmentPasswordBodySchema,
  EnrollmentSessionSchema,
  EnrollmentStartedSchema,
  EnrollmentTokenBodySchema,
  DesktopActivationSchema,
  StartDesktopBodySchema,
  StartEnrollmentBodySchema,
  UsernameParamsSchema,
} from '@palisade/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { originOf } from '#src/modules/events/event-actor.js';
import { actorOf } from '#src/plugins/session.js';
import { EnrollmentAdminService } from './enrollment-admin.service.js';
import { EnrollmentFlowService } from './enrollment-flow.service.js';

export const ENROLLMENT_COOKIE = 'palisade_enrollment';
const COOKIE_PATH = '/api/v1/enrollment';
/** The flow's cookie lives at most an hour (the link opens a new one while the token lives). */
const COOKIE_MAX_SECONDS = 3600;

export interface EnrollmentRoutesOptions {
  db: Db;
  publicUrl: string | undefined;
  secureCookie: boolean;
}

/** The base URL links point to: PUBLIC_URL, or the origin the request came to. */
export const baseUrlOf = (publicUrl: string | undefined, request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;

/** Enrollment (docs/enrollment.md): the admin's start route and the public flow. */
export const enrollmentRoutes: FastifyPluginAsyncZod<EnrollmentRoutesOptions> = async (app, { db, publicUrl, secureCookie }) => {
  const admin = new EnrollmentAdminService(db, app.services.mail);
  const flow = new EnrollmentFlowService(db, app.services.devices, app.services.mail, app.services.users.ldapPasswords);
  const tags = ['enrollment'];
  const cookieOptions = { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict' as const, secure: secureCookie };
  const fromCookie = (request: FastifyRequest) => flow.redeem(request.cookies[ENROLLMENT_COOKIE], originOf(request));
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.post(
    '/api/v1/user/:username/start_enrollment',
    {
      schema: {
        tags,
        summary: 'Start enrollment: email the enrollment link, or answer it once for the admin to hand over',
        description:
          'Issues an enrollment token (revoking the earlier unused one). With `send_email` the link is mailed in `locale` (400 `mail.not_configured` without SMTP, 400 `mail.send_failed` when the server refuses; no token stays valid then); otherwise the answer carries `token` and `url` once. 409 `enrollment.user_has_password` unless `re_enroll: true` when the user has a password.',
        params: UsernameParamsSchema,
        body: StartEnrollmentBodySchema,
        response: { 200: EnrollmentStartedSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const started = await admin.startEnrollment(actorOf(request), request.params.username, request.body, baseUrlOf(publicUrl, request));
      return noStore(reply).send(started);
    },
  );

  app.post(
    '/api/v1/user/:username/start_desktop',
    {
      schema: {
        tags,
        summary: 'Start desktop activation: a one-time token and the URL a client redeems it at, answered once',
        description:
          'Issues a desktop-activation token (revoking the earlier unused one) valid for `enrollment_token_lifetime_hours`. A client redeems it through the client API (docs/cli.md) to register a public key and fetch its configs.',
        params: UsernameParamsSchema,
        body: StartDesktopBodySchema,
        response: { 200: DesktopActivationSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const activation = await admin.startDesktop(actorOf(request), request.params.username, baseUrlOf(publicUrl, request));
      return noStore(reply).send(activation);
    },
  );

  app.post(
    '/api/v1/enrollment/start',
    {
      schema: {
        tags,
        summary: 'Open the enrollment flow with its token (sets the flow cookie, not a console session)',
        description: '400 `enrollment.token_invalid` for a wrong, expired, used or revoked token; 429 `request.rate_limited`.',
        body: EnrollmentTokenBodySchema,
        response: { 200: EnrollmentSessionSchema, ...problems(400, 429) },
      },
    },
    async (request, reply) => {
      const redeemed = await flow.open(request.body.token, originOf(request));
      const left = Math.floor((redeemed.token.expiresAt.getTime() - Date.now()) / 1000);
      reply.setCookie(ENROLLMENT_COOKIE, request.body.token, { ...cookieOptions, maxAge: Math.max(1, Math.min(left, COOKIE_MAX_SECONDS)) });
      return noStore(reply).send(await flow.session(redeemed));
    },
  );

  app.get(
    '/api/v1/enrollment/session',
    {
      schema: {
        tags,
        summary: 'The state of the enrollment flow of this browser',
        description: '400 `enrollment.token_invalid` without the flow cookie or when its token is no longer valid.',
        response: { 200: EnrollmentSessionSchema, ...problems(400, 429) },
      },
    },
    async (request, reply) => noStore(reply).send(await flow.session(await fromCookie(request))),
  );

  app.post(
    '/api/v1/enrollment/password',
    {
      schema: {
        tags,
        summary: 'Set the password of the enrolling account (spec §5 strength rules)',
        body: EnrollmentPasswordBodySchema,
        response: { 204: z.null(), ...problems(400, 429) },
      },
    },
    async (request, reply) => {
      await flow.setPassword(await fromCookie(request), request.body.password, originOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/enrollment/device',
    {
      schema: {
        tags,
        summary: "Add the enrolling person's first VPN device (the add-device rules); answers its configs",
        body: EnrollmentDeviceBodySchema,
        response: { 201: EnrollmentDeviceSchema, ...problems(400, 403, 429) },
      },
    },
    async (request, reply) => {
      const created = await flow.addDevice(await fromCookie(request), request.body, originOf(request));
      return noStore(reply).code(201).send(created);
    },
  );

  app.post(
    '/api/v1/enrollment/finish',
    {
      schema: {
        tags,
        summary: 'Finish enrollment: spends the token, marks the account enrolled, sends the welcome email',
        description:
          '409 `enrollment.password_required` without a password; 409 `enrollment.device_required` without a device while the VPN step is mandatory.',
        body: EnrollmentFinishBodySchema,
        response: { 200: EnrollmentFinishedSchema, ...problems(400, 409, 429) },
      },
    },
    async (request, reply) => {
      const finished = await flow.finish(await fromCookie(request), request.body.locale, originOf(request));
      reply.clearCookie(ENROLLMENT_COOKIE, cookieOptions);
      return finished;
    },
  );
};
