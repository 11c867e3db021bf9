import {
  EnterpriseSettingsSchema,
  LogoFileParamsSchema,
  LogoKindParamsSchema,
  PatchEnterpriseSettingsBodySchema,
  PatchSettingsBodySchema,
  SettingsEssentialsSchema,
  SettingsIdParamsSchema,
  SettingsSchema,
  UpdateLogoBodySchema,
  UpdateSettingsBodySchema,
} from '@palisade/contracts';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['settings'];
  const settings = app.services.settings;

  app.get(
    '/api/v1/settings_essentials',
    { schema: { tags, summary: 'Public settings the login page needs', response: { 200: SettingsEssentialsSchema } } },
    () => settings.essentials(),
  );

  app.get(
    '/api/v1/settings',
    { schema: { tags, summary: 'Global settings', response: { 200: SettingsSchema, ...problems(401, 403) } } },
    () => settings.get(),
  );

  app.put(
    '/api/v1/settings',
    {
      schema: {
        tags,
        summary: 'Replace global settings',
        body: UpdateSettingsBodySchema,
        response: { 200: SettingsSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => settings.update(actorOf(request), request.body),
  );

  app.patch(
    '/api/v1/settings',
    {
      schema: {
        tags,
        summary: 'Change some global settings',
        body: PatchSettingsBodySchema,
        response: { 200: SettingsSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => settings.update(actorOf(request), request.body),
  );

  app.put(
    '/api/v1/settings/:id',
    {
      schema: {
        tags,
        summary: 'Restore the default branding (instance name and logos; uploaded logos are deleted)',
        params: SettingsIdParamsSchema,
        response: { 200: SettingsSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => settings.restoreBranding(actorOf(request), request.params.id),
  );

  app.put(
    '/api/v1/settings/logo/:kind',
    {
      // Base64 of a file somewhat over the logo limit still arrives, to be refused with the limit named.
      bodyLimit: 1024 * 1024,
      schema: {
        tags,
        summary: 'Upload a logo (PNG, WebP or SVG, base64) and use it (docs/branding.md)',
        params: LogoKindParamsSchema,
        body: UpdateLogoBodySchema,
        response: { 200: SettingsSchema, ...problems(400, 401, 403, 413, 415) },
      },
    },
    (request) => settings.uploadLogo(actorOf(request), request.params.kind, request.body.data),
  );

  app.get(
    '/api/v1/branding/logo/:kind/:file',
    {
      schema: {
        tags,
        summary: 'An uploaded logo (public; the file name carries its content hash)',
        params: LogoFileParamsSchema,
        response: {
          200: { description: 'The image', content: { 'image/*': { schema: z.string().meta({ format: 'binary' }) } } },
          ...problems(400, 404),
        },
      },
    },
    async (request, reply) => {
      const logo = await settings.logo(request.params.kind, request.params.file);
      return (
        reply
          .type(logo.contentType)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
          .header('cross-origin-resource-policy', 'same-origin')
          // Bytes: sent as they are (the type provider only knows strings).
          .send(Buffer.from(logo.dataBase64, 'base64') as unknown as string)
      );
    },
  );

  app.get(
    '/api/v1/settings_enterprise',
    {
      schema: {
        tags,
        summary: 'Enterprise settings (device management lock, all-traffic, manual config)',
        response: { 200: EnterpriseSettingsSchema, ...problems(401) },
      },
    },
    () => settings.getEnterprise(),
  );

  app.patch(
    '/api/v1/settings_enterprise',
    {
      schema: {
        tags,
        summary: 'Change enterprise settings',
        body: PatchEnterpriseSettingsBodySchema,
        response: { 200: EnterpriseSettingsSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => settings.updateEnterprise(actorOf(request), request.body),
  );
};
