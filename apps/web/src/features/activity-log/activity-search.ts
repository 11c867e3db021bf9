import {
  ActivityLogQuerySchema,
  type ActivityLogQuery,
  EVENT_MODULES,
  EVENT_TYPES,
  type EventModule,
  type EventType,
} from '@palisade/contracts';
import { z } from 'zod';

/**
 * URL search of the activity log: every filter lives in the URL so a filtered view can be shared
 * and reloaded. It reuses the API's query fields (STYLE habit 1); a hand-edited URL with a bad
 * value falls back to the default of that field instead of breaking the page.
 *
 * The time range is either a preset relative to now (`range=24h`), recomputed at each load so a
 * shared "last 24 hours" link means the last 24 hours when it is opened, or `range=custom` with
 * absolute `from` / `to` instants.
 */
export const ACTIVITY_RANGES = ['1h', '24h', '7d', '30d', 'custom'] as const;
export type ActivityRange = (typeof ACTIVITY_RANGES)[number];
const RANGE_MS: Record<Exclude<ActivityRange, 'custom'>, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

const shape = ActivityLogQuerySchema.shape;
/** An array of the allowed values: unknown entries are dropped, duplicates removed, a single value accepted. */
const listOf = <T extends string>(allowed: readonly T[], max = 50) =>
  z
    .unknown()
    .optional()
    .transform((v) => {
      const items = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
      const kept = items.filter((item): item is T => typeof item === 'string' && (allowed as readonly string[]).includes(item));
      return [...new Set(kept)].slice(0, max);
    });
const usernames = z
  .unknown()
  .optional()
  .transform((v) => {
    const items = Array.isArray(v) ? v : typeof v === 'string' && v !== '' ? [v] : [];
    const kept = items.filter((item): item is string => typeof item === 'string' && item.length > 0 && item.length <= 64);
    return [...new Set(kept)].slice(0, 50);
  });
const instant = z.iso.datetime({ offset: true }).optional().catch(undefined);

const ActivitySearchSchema = z.object({
  page: shape.page.optional().catch(undefined),
  per_page: shape.per_page.optional().catch(undefined),
  search: shape.search.catch(undefined),
  sort: shape.sort.unwrap().optional().catch(undefined),
  range: z.enum(ACTIVITY_RANGES).optional().catch(undefined),
  from: instant,
  to: instant,
  user: usernames,
  module: listOf<EventModule>(EVENT_MODULES),
  event: listOf<EventType>(EVENT_TYPES),
});
type ParsedSearch = z.infer<typeof ActivitySearchSchema>;
/** What the URL holds; empty lists and unset fields are left out so URLs stay short. */
export type ActivitySearch = { [K in keyof ParsedSearch]?: Exclude<ParsedSearch[K], undefined> };

export function parseActivitySearch(raw: Record<string, unknown>): ActivitySearch {
  const parsed = ActivitySearchSchema.parse(raw);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  // Absolute instants only mean something for a custom range.
  if (out.range !== 'custom') {
    delete out.from;
    delete out.to;
  }
  return out as ActivitySearch;
}

export const ACTIVITY_DEFAULTS = { page: 1, per_page: 50, sort: '-timestamp' } as const satisfies Partial<ActivityLogQuery>;

/** The list query of the API. Fields are omitted when unset so equal filters give equal query keys. */
export type ActivityListParams = Pick<ActivityLogQuery, 'page' | 'per_page' | 'sort'> &
  Partial<Pick<ActivityLogQuery, 'from' | 'to' | 'search' | 'user' | 'module' | 'event'>>;

/** A preset's start, floored to the minute so the query (and its cache key) is stable within a minute. */
export function presetFrom(range: Exclude<ActivityRange, 'custom'>, now: number): string {
  const start = now - RANGE_MS[range];
  return new Date(start - (start % 60_000)).toISOString();
}

/** Filters without paging and sort: what the export downloads. */
export function toActivityFilter(search: ActivitySearch, now: number): Omit<ActivityListParams, 'page' | 'per_page' | 'sort'> {
  const out: Omit<ActivityListParams, 'page' | 'per_page' | 'sort'> = {};
  if (search.range === 'custom') {
    if (search.from) out.from = search.from;
    if (search.to) out.to = search.to;
  } else if (search.range) {
    out.from = presetFrom(search.range, now);
  }
  if (search.search) out.search = search.search;
  if (search.user?.length) out.user = search.user;
  if (search.module?.length) out.module = search.module;
  if (search.event?.length) out.event = search.event;
  return out;
}

export function toActivityListParams(search: ActivitySearch, now: number): ActivityListParams {
  return {
    page: search.page ?? ACTIVITY_DEFAULTS.page,
    per_page: search.per_page ?? ACTIVITY_DEFAULTS.per_page,
    sort: search.sort ?? ACTIVITY_DEFAULTS.sort,
    ...toActivityFilter(search, now),
  };
}

/** Whether any filter narrows the list (the empty state then suggests clearing them). */
export const hasActivityFilter = (search: ActivitySearch): boolean =>
  Boolean(search.range || search.search || search.user?.length || search.module?.length || search.event?.length);

/** The export URL of the current filter; arrays repeat their key, as the API reads them. */
export function activityExportUrl(search: ActivitySearch, format: 'csv' | 'jsonl', now: number): string {
  const query = new URLSearchParams();
  const { sort } = toActivityListParams(search, now);
  for (const [key, value] of Object.entries(toActivityFilter(search, now))) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  query.set('sort', sort);
  query.set('format', format);
  return `/api/v1/activity_log/export?${query.toString()}`;
}

/**
 * `<input type="datetime-local">` works in local wall time to the minute; the URL and the API hold
 * instants. The API's `to` is inclusive, so an end chosen as 10:15 means up to 10:15:59.999.
 */
export function localInputToIso(value: string, edge: 'start' | 'end' = 'start'): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  return new Date(date.getTime() + (edge === 'end' ? 59_999 : 0)).toISOString();
}

export function isoToLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
