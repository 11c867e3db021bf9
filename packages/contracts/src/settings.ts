import { z } from 'zod';
import { LIMITS, requiredString } from './validation.js';

const logoUrl = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(LIMITS.urlMax, { error: 'max_length' })
  // An address the browser loads as an image: http(s) or a path on this server (not `//host`).
  .refine((v) => v === '' || (v.startsWith('/') && !v.startsWith('//')) || /^https?:\/\/[^\s/][^\s]*$/i.test(v), { error: 'url.http' });

/** Global settings: instance branding and module flags (spec §3). */
export const SettingsSchema = z
  .object({
    instance_name: z.string(),
    main_logo_url: z.string(),
    nav_logo_url: z.string(),
    wireguard_enabled: z.boolean(),
    webhooks_enabled: z.boolean(),
    worker_enabled: z.boolean(),
    openid_enabled: z.boolean(),
  })
  .meta({ id: 'Settings' });
export type Settings = z.infer<typeof SettingsSchema>;

export const UpdateSettingsBodySchema = z.strictObject({
  instance_name: requiredString(LIMITS.instanceNameMax),
  main_logo_url: logoUrl,
  nav_logo_url: logoUrl,
  wireguard_enabled: z.boolean({ error: 'invalid_type' }),
  webhooks_enabled: z.boolean({ error: 'invalid_type' }),
  worker_enabled: z.boolean({ error: 'invalid_type' }),
  openid_enabled: z.boolean({ error: 'invalid_type' }),
});
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBodySchema>;
export const PatchSettingsBodySchema = UpdateSettingsBodySchema.partial();
export type PatchSettingsBody = z.infer<typeof PatchSettingsBodySchema>;

/** Public: everything the login page needs before anyone is signed in. */
export const SettingsEssentialsSchema = SettingsSchema.meta({ id: 'SettingsEssentials' });
export type SettingsEssentials = z.infer<typeof SettingsEssentialsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  instance_name: 'Palisade',
  main_logo_url: '',
  nav_logo_url: '',
  wireguard_enabled: true,
  webhooks_enabled: true,
  worker_enabled: true,
  openid_enabled: true,
};
