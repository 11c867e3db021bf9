import { z } from 'zod';

/** One app a user authorized to sign them in with Palisade (`GET /oauth/apps/{username}`). */
export const AuthorizedAppSchema = z
  .object({
    client_id: z.string(),
    /** The app's name, as on the consent page. */
    name: z.string(),
    /** The scopes the user granted the app. */
    scopes: z.array(z.string()),
    /** When the user first authorized the app (ISO 8601). */
    authorized_at: z.string(),
  })
  .meta({ id: 'AuthorizedApp' });
export type AuthorizedApp = z.infer<typeof AuthorizedAppSchema>;

export const AuthorizedAppParamsSchema = z.strictObject({
  username: z.string().min(1).max(64),
  client_id: z.string().min(1).max(128),
});
