import { unwrap } from '@palisade/api-client';
import type { AuthKey, CreateAuthKeyBody } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const authKeysKeys = { of: (username: string) => ['auth-keys', username] as const };

/** GET /user/{username}/auth_key: the user's SSH and GPG public keys. */
export const authKeysQueryOptions = (username: string) =>
  queryOptions({
    queryKey: authKeysKeys.of(username),
    queryFn: (): Promise<AuthKey[]> => unwrap(api.GET('/api/v1/user/{username}/auth_key', { params: { path: { username } } })),
  });

function useRefresh(username: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: authKeysKeys.of(username) });
}

export function useAddAuthKey(username: string) {
  const refresh = useRefresh(username);
  return useMutation({
    mutationFn: (body: CreateAuthKeyBody): Promise<AuthKey> =>
      unwrap(api.POST('/api/v1/user/{username}/auth_key', { params: { path: { username } }, body })),
    onSettled: refresh,
  });
}

export function useRenameAuthKey(username: string) {
  const refresh = useRefresh(username);
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }): Promise<AuthKey> =>
      unwrap(api.POST('/api/v1/user/{username}/auth_key/{id}/rename', { params: { path: { username, id } }, body: { name } })),
    onSettled: refresh,
  });
}

export function useDeleteAuthKey(username: string) {
  const refresh = useRefresh(username);
  return useMutation({
    mutationFn: async (id: number): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/user/{username}/auth_key/{id}', { params: { path: { username, id } } }));
    },
    onSettled: refresh,
  });
}
