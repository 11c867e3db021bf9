import { z } from 'zod';

/** Spec §3 update info: the newest release this instance could move to (`GET /updates`). */
export const UpdateInfoSchema = z
  .object({
    version: z.string(),
    /** True when this release, or any release between the running version and it, is critical. */
    critical: z.boolean(),
    /** An http(s) address of the release notes. */
    release_notes_url: z.string(),
  })
  .meta({ id: 'UpdateInfo' });
export type UpdateInfo = z.infer<typeof UpdateInfoSchema>;
