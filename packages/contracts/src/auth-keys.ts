import { z } from 'zod';

/** Spec §9: the two kinds of authentication key a user keeps in their profile. */
export const AUTH_KEY_TYPES = ['ssh', 'gpg'] as const;
export const AuthKeyTypeSchema = z.enum(AUTH_KEY_TYPES);
export type AuthKeyType = z.infer<typeof AuthKeyTypeSchema>;

/** A key name: one line (it becomes the comment of an authorized_keys line). */
const authKeyNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]*$/u);

/** One SSH or GPG public key of a user (`GET /user/{username}/auth_key`). */
export const AuthKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    key_type: AuthKeyTypeSchema,
    /** The normalized public key: `type base64 name` for SSH, the armored public key for GPG. */
    key: z.string(),
    /** SSH: `SHA256:…` as `ssh-keygen -l` prints it; GPG: the primary key fingerprint (hex). */
    fingerprint: z.string(),
    /** The smart card's serial number, for keys written to a card (YubiKey provisioning). */
    serial: z.string().optional(),
    created_at: z.string(),
  })
  .meta({ id: 'AuthKey' });
export type AuthKey = z.infer<typeof AuthKeySchema>;

/** `POST /user/{username}/auth_key`. The key: an OpenSSH public key line, or an armored GPG public key. */
export const CreateAuthKeyBodySchema = z.strictObject({
  name: authKeyNameSchema,
  key_type: AuthKeyTypeSchema,
  key: z.string().trim().min(1).max(65536),
});
export type CreateAuthKeyBody = z.infer<typeof CreateAuthKeyBodySchema>;

export const RenameAuthKeyBodySchema = z.strictObject({ name: authKeyNameSchema });
export type RenameAuthKeyBody = z.infer<typeof RenameAuthKeyBodySchema>;

export const AuthKeyParamsSchema = z.strictObject({
  username: z.string().min(1).max(64),
  id: z.coerce.number().int().positive().max(2147483647),
});

/** `GET /user/{username}/ssh_keys`: authorized_keys lines, one per SSH key (text/plain). */
export const AuthorizedKeysTextSchema = z
  .string()
  .meta({ description: 'OpenSSH authorized_keys lines, one per SSH key of the user; empty for unknown or disabled users.' });
