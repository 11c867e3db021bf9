import { unwrap } from '@palisade/api-client';
import type { MfaRequired } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authKeys } from '@/features/auth/auth.queries';
import { userKeys } from '@/features/users/users.queries';
import { api } from '@/lib/api';
import { mfaKeys } from './mfa.queries';

type MfaMethod = MfaRequired['mfa']['methods'][number];

/** Every MFA change refreshes the status and the signed-in user (its `mfa_enabled` / `mfa_method`). */
function useMfaMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: mfaKeys.status }),
        queryClient.invalidateQueries({ queryKey: authKeys.me }),
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
      ]);
    },
  });
}

/** A fresh TOTP secret and its `otpauth://` URI; the method is on only after the first valid code. */
export const useTotpInit = () => useMfaMutation(() => unwrap(api.POST('/api/v1/auth/totp/init')));

/** Enables TOTP with a first code; answers the recovery codes when it was the first method. */
export const useTotpEnable = () => useMfaMutation((code: string) => unwrap(api.POST('/api/v1/auth/totp', { body: { code } })));

export const useTotpDisable = () => useMfaMutation(() => unwrap(api.DELETE('/api/v1/auth/totp')));

export const useMfaDefault = () =>
  useMfaMutation((default_method: MfaMethod) => unwrap(api.PUT('/api/v1/auth/mfa', { body: { default_method } })));

/** Turns MFA off: proven with the current password or a code of an enabled method. */
export const useMfaDisable = () =>
  useMfaMutation((body: { password: string } | { code: string }) => unwrap(api.DELETE('/api/v1/auth/mfa', { body })));

/** New recovery codes (the old ones stop working); shown once. */
export const useRecoveryCodesRegenerate = () => useMfaMutation(() => unwrap(api.POST('/api/v1/auth/recovery/codes')));

/** An admin resets another user's MFA: every method and the recovery codes are removed. */
export function useMfaReset(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/user/{username}/mfa', { params: { path: { username } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** Emails a code to the user's address to turn email codes on. */
export const useEmailInit = () => useMfaMutation(() => unwrap(api.POST('/api/v1/auth/email/init')));

/** Enables email codes with the emailed code; answers the recovery codes when it was the first method. */
export const useEmailEnable = () => useMfaMutation((code: string) => unwrap(api.POST('/api/v1/auth/email', { body: { code } })));

export const useEmailDisable = () => useMfaMutation(() => unwrap(api.DELETE('/api/v1/auth/email')));
