import { z } from 'zod';

/**
 * Branding (spec §3, §5, §9; docs/branding.md): the instance name and two logos, each a URL or a
 * file uploaded to the API and served from its origin.
 */

/** The id of the one settings row (`PUT /settings/{id}` restores its default branding). */
export const SETTINGS_ID = 1;

/** `main`: the login page logo; `nav`: the navigation logo. */
export const LOGO_KINDS = ['main', 'nav'] as const;
export type LogoKind = (typeof LOGO_KINDS)[number];

/** Largest logo in pixels (spec §5: login logo 250×100, nav logo 100×100). */
export const LOGO_MAX_PIXELS: Record<LogoKind, { width: number; height: number }> = {
  main: { width: 250, height: 100 },
  nav: { width: 100, height: 100 },
};

/** Largest logo file in bytes. */
export const LOGO_MAX_BYTES = 256 * 1024;

/** The image types a logo may be: PNG, WebP, SVG (sanitised on upload). */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/webp', 'image/svg+xml'] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];

export const LogoKindParamsSchema = z.strictObject({ kind: z.enum(LOGO_KINDS, { error: 'invalid' }) });

/** GET /branding/logo/{kind}/{file}: `file` is the content hash and the extension. */
export const LogoFileParamsSchema = z.strictObject({
  kind: z.enum(LOGO_KINDS, { error: 'invalid' }),
  file: z.string().regex(/^[0-9a-f]{16}\.(png|webp|svg)$/, { error: 'invalid' }),
});

/**
 * PUT /settings/logo/{kind}: the file, base64-encoded. The type comes from the file's content
 * (PNG and WebP signatures, an `<svg>` root), not from a declared name.
 */
export const UpdateLogoBodySchema = z.strictObject({
  data: z
    .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
    .min(1, { error: 'required' })
    // Twice the limit: a file somewhat over it gets the service's answer, which names the limit.
    .max(Math.ceil((2 * LOGO_MAX_BYTES) / 3) * 4, { error: 'max_length' })
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: 'invalid' }),
});
export type UpdateLogoBody = z.infer<typeof UpdateLogoBodySchema>;

export const SettingsIdParamsSchema = z.strictObject({ id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });
