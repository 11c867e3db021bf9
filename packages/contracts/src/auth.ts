import { z } from 'zod';
import { MfaMethodSchema, UserSchema } from './users.js';

export const LoginBodySchema = z.strictObject({
  username: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(254, { error: 'max_length' }),
  password: z.string({ error: 'required' }).min(1, { error: 'required' }).max(1024, { error: 'max_length' }),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const LoginSuccessSchema = z.object({ user: UserSchema, url: z.string().optional() }).meta({ id: 'LoginSuccess' });
export type LoginSuccess = z.infer<typeof LoginSuccessSchema>;

export const MfaRequiredSchema = z
  .object({ mfa: z.object({ methods: z.array(MfaMethodSchema), default_method: MfaMethodSchema.optional() }) })
  .meta({ id: 'MfaRequired' });
export type MfaRequired = z.infer<typeof MfaRequiredSchema>;

export const InfoSchema = z
  .object({
    version: z.string(),
    network_present: z.boolean(),
    smtp_enabled: z.boolean(),
  })
  .meta({ id: 'AppInfo' });
export type Info = z.infer<typeof InfoSchema>;

export const HealthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });
/** `GET /health/live`: the process answers; no database call (docs/operations.md). */
export const LivenessSchema = z.object({ status: z.literal('ok') });
/**
 * `GET /health/ready`: 200 `ready`, or 503 `not_ready` while the database is unreachable, migrations
 * run, or the process drains before a shutdown (then `reason: shutting_down`).
 */
export const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['ok', 'unreachable']),
  migrations: z.enum(['done', 'running', 'unknown']),
  reason: z.enum(['shutting_down']).optional(),
});
export type Readiness = z.infer<typeof ReadinessSchema>;
