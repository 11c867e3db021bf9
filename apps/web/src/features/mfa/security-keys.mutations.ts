import { unwrap } from '@palisade/api-client';
import { startRegistration } from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { authKeys } from '@/features/auth/auth.queries';
import { userKeys } from '@/features/users/users.queries';
import { api } from '@/lib/api';
import { mfaKeys } from './mfa.queries';
import { asCredentialResponse } from './security-keys';

export const securityKeysQueryOptions = (username: string) =>
  queryOptions({
    queryKey: [...mfaKeys.status, 'security_keys', username] as const,
    queryFn: () => unwrap(api.GET('/api/v1/user/{username}/security_key', { params: { path: { username } } })),
  });

function useRefreshMfa() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: mfaKeys.status }),
      queryClient.invalidateQueries({ queryKey: authKeys.me }),
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
    ]);
}

/** Registers a security key: server options, the browser prompt, then the server checks the answer. */
export function useAddSecurityKey() {
  const refresh = useRefreshMfa();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await unwrap(api.POST('/api/v1/auth/webauthn/init'));
      // biome-ignore lint/suspicious/noExplicitAny: the server's creation options JSON, passed to the browser as is
      const response = await startRegistration({ optionsJSON: options as any });
      return unwrap(api.POST('/api/v1/auth/webauthn/finish', { body: { name, response: asCredentialResponse(response) } }));
    },
    onSettled: refresh,
  });
}

export function useDeleteSecurityKey(username: string) {
  const refresh = useRefreshMfa();
  return useMutation({
    mutationFn: (keyId: number) =>
      unwrap(api.DELETE('/api/v1/user/{username}/security_key/{keyId}', { params: { path: { username, keyId } } })),
    onSettled: refresh,
  });
}
