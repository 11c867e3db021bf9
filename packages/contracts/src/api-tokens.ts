import { z } from 'zod';

/**
 * Personal API tokens (spec §3, docs/api.md "API tokens"): `pal_<id>_<secret><checksum>`, sent as
 * `Authorization: Bearer <token>`. The token is answered once, when it is created.
 */
export const API_TOKEN_PATTERN = /^pal_[0-9A-Za-z]{12}_[0-9A-Za-z]{46}$/;

/** A token name: one line, unique per user (case-insensitive). */
const apiTokenNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]*$/u);

/** One API token of a user, without its secret (`GET /user/{username}/api_token`). */
export const ApiTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    created_at: z.string(),
    /** When the token last authenticated a request (to the minute); absent when never used. */
    last_used_at: z.string().optional(),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** `POST /user/{username}/api_token` answers the token once; it cannot be read again. */
export const CreatedApiTokenSchema = ApiTokenSchema.extend({ token: z.string() }).meta({ id: 'CreatedApiToken' });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

export const CreateApiTokenBodySchema = z.strictObject({ name: apiTokenNameSchema });
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBodySchema>;

export const RenameApiTokenBodySchema = z.strictObject({ name: apiTokenNameSchema });
export type RenameApiTokenBody = z.infer<typeof RenameApiTokenBodySchema>;

export const ApiTokenParamsSchema = z.strictObject({
  username: z.string().min(1).max(64),
  id: z.coerce.number().int().positive().max(2147483647),
});
