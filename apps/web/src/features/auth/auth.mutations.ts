import { unwrap } from '@palisade/api-client';
import type { LoginBody, LoginSuccess, MfaRequired } from '@palisade/contracts';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { appKeys } from '@/features/app/app.queries';
import { api } from '@/lib/api';
import { authKeys } from './auth.queries';
import { useAuthStore } from './auth-store';

export type LoginResult = LoginSuccess | MfaRequired;
export const isMfaRequired = (result: LoginResult): result is MfaRequired => 'mfa' in result;

/** A completed sign-in (password alone, or its second step): the user goes to the cache and the auth store. */
export function storeSignedIn(queryClient: QueryClient, result: LoginSuccess): void {
  queryClient.setQueryData(authKeys.me, result.user);
  const store = useAuthStore.getState();
  store.setUser(result.user);
  store.loginSubject.next(result.user);
}

/** POST /auth: 200 `{user, url?}` signs in; 201 `{mfa}` asks for a second factor. */
export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: LoginBody): Promise<LoginResult> => unwrap(api.POST('/api/v1/auth', { body })),
    onSuccess: (result) => {
      if (!isMfaRequired(result)) storeSignedIn(queryClient, result);
    },
  });
}

/** Logout: tell the API, then reset the stores and the cache, then go to the login page. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      await api.POST('/api/v1/auth/logout').catch(() => undefined);
    },
    onSettled: async () => {
      useAuthStore.getState().reset();
      useAuthStore.getState().setAuthLocation(undefined);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== appKeys.essentials[0] });
      await navigate({ to: '/login' });
    },
  });
}
