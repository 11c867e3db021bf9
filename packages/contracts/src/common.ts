import { z } from 'zod';
import { LIMITS } from './validation.js';

export const PageQuerySchema = z.strictObject({
  page: z.coerce.number({ error: 'number' }).int({ error: 'number' }).min(1, { error: 'min_value' }).max(1_000_000, { error: 'max_value' }).default(1),
  per_page: z.coerce.number({ error: 'number' }).int({ error: 'number' }).min(1, { error: 'min_value' }).max(200, { error: 'max_value' }).default(50),
  search: z.string().trim().max(LIMITS.searchMax, { error: 'max_length' }).optional(),
});

export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  });

export const OkSchema = z.object({ ok: z.literal(true) });
export const EmptySchema = z.null().describe('No content');
