import { z } from 'zod';
import { LIMITS } from './validation.js';

/**
 * A page number from the query string: decimal digits only (`z.coerce.number` alone would also
 * read `0x10`, `1e3` or ` 7 `), then range-checked.
 */
const pageNumber = (max: number, fallback: number) =>
  z
    .union([z.number({ error: 'number' }), z.string({ error: 'number' }).regex(/^[0-9]{1,9}$/, { error: 'number' })], { error: 'number' })
    .optional()
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.number().int({ error: 'number' }).min(1, { error: 'min_value' }).max(max, { error: 'max_value' }));

export const PageQuerySchema = z.strictObject({
  page: pageNumber(1_000_000, 1),
  per_page: pageNumber(200, 50),
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
