import { unwrap } from '@palisade/api-client';
import type { AuthorizedApp } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const authorizedAppsKeys = { of: (username: string) => ['authorized-apps', username] as const };

/** GET /oauth/apps/{username}: the OpenID apps the user authorized. */
export const authorizedAppsQueryOptions = (username: string) =>
  queryOptions({
    queryKey: authorizedAppsKeys.of(username),
    queryFn: (): Promise<AuthorizedApp[]> => unwrap(api.GET('/api/v1/oauth/apps/{username}', { params: { path: { username } } })),
  });

/** DELETE /user/{username}/oauth_app/{client_id}: the app's consent and tokens end at once. */
export function useRevokeAuthorizedApp(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (clientId: string): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/user/{username}/oauth_app/{client_id}', { params: { path: { username, client_id: clientId } } }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: authorizedAppsKeys.of(username) }),
  });
}
