import {
  EnterpriseSettingsSchema,
  PatchEnterpriseSettingsBodySchema,
  PatchSettingsBodySchema,
  SettingsEssentialsSchema,
  SettingsSchema,
  UpdateSettingsBodySchema,
} from '@palisade/contracts';
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
