import { unwrap } from '@palisade/api-client';
import type { ApiToken, CreatedApiToken } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const apiTokensKeys = { of: (username: string) => ['api-tokens', username] as const };

/** GET /user/{username}/api_token: the user's tokens (names and dates; never the secrets). */
export const apiTokensQueryOptions = (username: string) =>
  queryOptions({
    queryKey: apiTokensKeys.of(username),
    queryFn: (): Promise<ApiToken[]> => unwrap(api.GET('/api/v1/user/{username}/api_token', { params: { path: { username } } })),
  });

/** POST /user/{username}/api_token: answers the token itself, once. */
export function useCreateApiToken(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string): Promise<CreatedApiToken> =>
      unwrap(api.POST('/api/v1/user/{username}/api_token', { params: { path: { username } }, body: { name } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensKeys.of(username) }),
  });
}

/** POST /user/{username}/api_token/{id}/rename. */
export function useRenameApiToken(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }): Promise<ApiToken> =>
      unwrap(api.POST('/api/v1/user/{username}/api_token/{id}/rename', { params: { path: { username, id } }, body: { name } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensKeys.of(username) }),
  });
}

/** DELETE /user/{username}/api_token/{id}: requests with the token are refused at once. */
export function useDeleteApiToken(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/user/{username}/api_token/{id}', { params: { path: { username, id } } }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensKeys.of(username) }),
  });
}
