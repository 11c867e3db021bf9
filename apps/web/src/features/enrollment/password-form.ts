import { passwordSchema } from '@palisade/contracts';
import { z } from 'zod';

/** A new password and its repeat (UI-only), checked with the API's own `passwordSchema`. */
export const NewPasswordFormSchema = z
  .object({ password: passwordSchema, repeat: z.string() })
  .refine((v) => v.password === v.repeat, { path: ['repeat'], error: 'fields_do_not_match' });
