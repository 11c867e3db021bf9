import { unwrap } from '@palisade/api-client';
import type { ExternalAuthInfo, ExternalCallbackBody } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { isMfaRequired, type LoginResult, storeSignedIn } from './auth.mutations';

/** GET /openid/auth_info: a fresh authorization URL (and the button text); 404 when no provider is configured. */
export const fetchExternalAuthInfo = (): Promise<ExternalAuthInfo> => unwrap(api.GET('/api/v1/openid/auth_info'));

/** POST /openid/callback: like POST /auth, 200 signs in and 201 asks for the second factor. */
export function useExternalCallbackMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ExternalCallbackBody): Promise<LoginResult> => unwrap(api.POST('/api/v1/openid/callback', { body })),
    onSuccess: (result) => {
      if (!isMfaRequired(result)) storeSignedIn(queryClient, result);
    },
  });
}
