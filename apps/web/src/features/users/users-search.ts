import { UserListQuerySchema } from '@palisade/contracts';
import { z } from 'zod';

/**
 * URL search of the user list. Reuses the API's query fields (STYLE habit 1); an invalid value
 * in a hand-edited URL falls back to its default instead of breaking the page.
 */
const shape = UserListQuerySchema.shape;
const UsersSearchSchema = z.object({
  // Page numbers accept what the API accepts (decimal digits, in range); anything else is dropped.
  page: shape.page.optional().catch(undefined),
  per_page: shape.per_page.optional().catch(undefined),
  search: shape.search.catch(undefined),
  filter: shape.filter.unwrap().optional().catch(undefined),
  sort: shape.sort.unwrap().optional().catch(undefined),
});
export type UsersSearch = z.infer<typeof UsersSearchSchema>;
export type UsersListParams = Required<Omit<UsersSearch, 'search'>> & { search?: string };

export function parseUsersSearch(raw: Record<string, unknown>): UsersSearch {
  const parsed = UsersSearchSchema.parse(raw);
  const out: UsersSearch = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== undefined && value !== '') (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export const USERS_DEFAULTS = { page: 1, per_page: 50, filter: 'all', sort: 'username' } as const satisfies Omit<UsersListParams, 'search'>;

export function withUsersSearchDefaults(search: UsersSearch): UsersListParams {
  return {
    page: search.page ?? USERS_DEFAULTS.page,
    per_page: search.per_page ?? USERS_DEFAULTS.per_page,
    filter: search.filter ?? USERS_DEFAULTS.filter,
    sort: search.sort ?? USERS_DEFAULTS.sort,
    ...(search.search ? { search: search.search } : {}),
  };
}

/** URL search of a profile: `?edit=true` opens the details in edit mode ("Edit profile" in the user list). */
export interface ProfileSearch {
  edit?: true;
}

export const parseProfileSearch = (raw: Record<string, unknown>): ProfileSearch =>
  raw.edit === true || raw.edit === 'true' ? { edit: true } : {};
