import { ChangePasswordBodySchema, SetPasswordBodySchema } from '@palisade/contracts';
import { z } from 'zod';

/** UI-only "repeat" field added on top of the API bodies (STYLE habit 1: extend, never redefine). */
const repeatMatches = { path: ['repeat'], error: 'fields_do_not_match' };

export const SetPasswordFormSchema = SetPasswordBodySchema.extend({ repeat: z.string() }).refine(
  (v) => v.new_password === v.repeat,
  repeatMatches,
);

export const ChangePasswordFormSchema = ChangePasswordBodySchema.extend({ repeat: z.string() }).refine(
  (v) => v.new_password === v.repeat,
  repeatMatches,
);
