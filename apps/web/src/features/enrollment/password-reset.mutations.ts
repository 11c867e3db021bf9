import { unwrap } from '@palisade/api-client';
import type { PasswordResetSent } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import type { Language } from '@/i18n/languages';
import { api } from '@/lib/api';

const path = (username: string) => ({ params: { path: { username } } });

/** POST /user/{username}/reset_password: mails a reset link (valid 1 hour) in the given language. */
export const useAdminPasswordReset = () =>
  useMutation({
    mutationFn: async ({ username, locale }: { username: string; locale: Language }): Promise<PasswordResetSent> =>
      unwrap(api.POST('/api/v1/user/{username}/reset_password', { ...path(username), body: { locale } })),
  });
