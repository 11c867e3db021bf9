import { unwrap } from '@palisade/api-client';
import type { User, UserList } from '@palisade/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { UsersListParams } from './users-search';

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: UsersListParams) => [...userKeys.lists(), params] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (username: string) => [...userKeys.details(), username] as const,
};

/** Server-paged: only one page is ever fetched, so 10,000 users cost the same as 10. */
export const usersListQueryOptions = (params: UsersListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: async ({ signal }): Promise<UserList> => unwrap(api.GET('/api/v1/user', { params: { query: params }, signal })),
    placeholderData: keepPreviousData,
  });

export const userQueryOptions = (username: string) =>
  queryOptions({
    queryKey: userKeys.detail(username),
    queryFn: async ({ signal }): Promise<User> => unwrap(api.GET('/api/v1/user/{username}', { params: { path: { username } }, signal })),
  });

/** Suggestions for pickers (add member): the first matches of a search, never the whole list. */
export const userSuggestionsQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...userKeys.lists(), 'suggest', search] as const,
    queryFn: async ({ signal }): Promise<UserList> =>
      unwrap(api.GET('/api/v1/user', { params: { query: { page: 1, per_page: 10, search, filter: 'all', sort: 'username' } }, signal })),
    enabled: search.trim().length > 0,
  });

/** Live availability while an admin types a new username. */
export const usernameAvailableQueryOptions = (username: string) =>
  queryOptions({
    queryKey: [...userKeys.all, 'available', username] as const,
    queryFn: async ({ signal }): Promise<boolean> =>
      (await unwrap(api.POST('/api/v1/user/available', { body: { username }, signal }))).available,
    enabled: username.length > 0,
    staleTime: 0,
  });
