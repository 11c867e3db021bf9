import { z } from 'zod';
import { PageQuerySchema, paged } from './common.js';
import { emailSchema, newUsernameSchema, passwordSchema, personNameSchema, phoneSchema, usernameSchema } from './validation.js';

export const MFA_METHODS = ['totp', 'email', 'webauthn'] as const;
export const MfaMethodSchema = z.enum(MFA_METHODS);

/** The languages of the console and of mail (docs/mail.md). */
export const USER_LANGUAGES = ['en', 'ko', 'pl'] as const;
export const UserLanguageSchema = z.enum(USER_LANGUAGES, { error: 'invalid' });
export type UserLanguage = z.infer<typeof UserLanguageSchema>;

/** API.md §3 fixed shape. */
export const UserSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: z.string().optional(),
    is_active: z.boolean(),
    is_admin: z.boolean(),
    groups: z.array(z.string()),
    mfa_enabled: z.boolean(),
    mfa_method: MfaMethodSchema.optional(),
    enrolled: z.boolean(),
    has_password: z.boolean(),
    /** The language mail to the user is written in (the console's language); absent while not known. */
    language: UserLanguageSchema.optional(),
    created_at: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

export const UsernameParamsSchema = z.strictObject({ username: z.string().min(1).max(64) });

export const CreateUserBodySchema = z.strictObject({
  username: newUsernameSchema,
  first_name: personNameSchema,
  last_name: personNameSchema,
  email: emailSchema,
  phone: phoneSchema.optional(),
  password: passwordSchema.optional(),
});
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

/**
 * PUT /user/{username}: the editable fields. `groups` and `is_active` may only be changed by an
 * admin; a non-admin sending them unchanged is accepted, changed is 403. A rename to a reserved
 * name is refused by the API (field code `reserved`); an existing account keeps its name.
 */
export const UpdateUserBodySchema = z.strictObject({
  username: usernameSchema,
  first_name: personNameSchema,
  last_name: personNameSchema,
  email: emailSchema,
  phone: phoneSchema.optional(),
  is_active: z.boolean({ error: 'invalid_type' }).optional(),
  groups: z.array(z.string().min(1).max(64), { error: 'invalid_type' }).max(1000).optional(),
  /** Left out: unchanged; null: not known. */
  language: UserLanguageSchema.nullable().optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

export const USER_FILTERS = ['all', 'admins', 'users'] as const;
export const USER_SORTS = ['username', '-username', 'last_name', '-last_name', 'email', '-email', 'created_at', '-created_at'] as const;

export const UserListQuerySchema = PageQuerySchema.extend({
  filter: z.enum(USER_FILTERS, { error: 'invalid' }).default('all'),
  sort: z.enum(USER_SORTS, { error: 'invalid' }).default('username'),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

export const UserListSchema = paged(UserSchema).meta({ id: 'UserList' });
export type UserList = z.infer<typeof UserListSchema>;

export const UsernameAvailableBodySchema = z.strictObject({ username: usernameSchema });
export const UsernameAvailableSchema = z.object({ available: z.boolean() });

/** PUT /me/language: the console reports the language the signed-in user chose or was given. */
export const SetMyLanguageBodySchema = z.strictObject({ language: UserLanguageSchema });
export type SetMyLanguageBody = z.infer<typeof SetMyLanguageBodySchema>;

export const SetPasswordBodySchema = z.strictObject({ new_password: passwordSchema });
export const ChangePasswordBodySchema = z.strictObject({
  old_password: z.string({ error: 'required' }).min(1, { error: 'required' }).max(1024, { error: 'max_length' }),
  new_password: passwordSchema,
});
