import { unwrap } from '@palisade/api-client';
import type { LoginSuccess } from '@palisade/contracts';
import { startAuthentication } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { asCredentialResponse } from '@/features/mfa/security-keys';
import { api } from '@/lib/api';
import { storeSignedIn } from './auth.mutations';

/** The code-based second steps (spec §7): an authenticator code, an emailed code or a recovery code. */
export type MfaCodeMethod = 'totp' | 'email' | 'recovery';

export interface MfaCodeSignIn {
  method: MfaCodeMethod;
  code: string;
}

function verify({ method, code }: MfaCodeSignIn): Promise<LoginSuccess> {
  const body = { code };
  switch (method) {
    case 'totp':
      return unwrap(api.POST('/api/v1/auth/totp/verify', { body }));
    case 'email':
      return unwrap(api.POST('/api/v1/auth/email/verify', { body }));
    case 'recovery':
      return unwrap(api.POST('/api/v1/auth/recovery', { body }));
  }
}

/** The second sign-in step: on success the session is as after a password-only sign-in. */
export function useMfaSignInMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verify,
    onSuccess: (result) => storeSignedIn(queryClient, result),
  });
}

/** The security key step: server options, the browser prompt, then the server checks the assertion. */
export function useSecurityKeySignInMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<LoginSuccess> => {
      const options = await unwrap(api.POST('/api/v1/auth/webauthn/start'));
      // biome-ignore lint/suspicious/noExplicitAny: the server's request options JSON, passed to the browser as is
      const response = await startAuthentication({ optionsJSON: options as any });
      return unwrap(api.POST('/api/v1/auth/webauthn', { body: { response: asCredentialResponse(response) } }));
    },
    onSuccess: (result) => storeSignedIn(queryClient, result),
  });
}

/** Emails a sign-in code (the API allows one every 30 seconds). */
export const useEmailCodeSend = () => useMutation({ mutationFn: () => unwrap(api.GET('/api/v1/auth/email')) });
