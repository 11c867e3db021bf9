import { unwrap } from '@palisade/api-client';
import type { Yubikey } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { authKeysKeys } from '@/features/auth-keys/auth-keys.queries';
import { api } from '@/lib/api';

export const yubikeysKeys = { of: (username: string) => ['yubikeys', username] as const };

/** GET /user/{username}/yubikey: the user's provisioned YubiKeys (docs/provisioning.md). */
export const yubikeysQueryOptions = (username: string) =>
  queryOptions({
    queryKey: yubikeysKeys.of(username),
    queryFn: ({ signal }): Promise<Yubikey[]> =>
      unwrap(api.GET('/api/v1/user/{username}/yubikey', { params: { path: { username } }, signal })),
  });

/** A YubiKey's keys are auth keys: a change refreshes both lists. */
function useRefresh(username: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: yubikeysKeys.of(username) }),
      queryClient.invalidateQueries({ queryKey: authKeysKeys.of(username) }),
    ]);
}

export function useRenameYubikey(username: string) {
  const refresh = useRefresh(username);
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }): Promise<Yubikey> =>
      unwrap(api.POST('/api/v1/user/{username}/yubikey/{id}/rename', { params: { path: { username, id } }, body: { name } })),
    onSettled: refresh,
  });
}

/** Deletes the record and the card's authentication keys (the card itself is untouched). */
export function useDeleteYubikey(username: string) {
  const refresh = useRefresh(username);
  return useMutation({
    mutationFn: async (id: number): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/user/{username}/yubikey/{id}', { params: { path: { username, id } } }));
    },
    onSettled: refresh,
  });
}
