import { unwrap } from '@palisade/api-client';
import type { PasswordResetInfo } from '@palisade/contracts';
import type { Language } from '@/i18n/languages';
import { api } from '@/lib/api';

/** The public password reset calls: the link's token travels in each call (nothing is stored in the browser). */
export const requestPasswordReset = async (email: string, locale: Language): Promise<void> => {
  await unwrap(api.POST('/api/v1/password_reset/request', { body: { email, locale } }));
};

export const startPasswordReset = async (token: string): Promise<PasswordResetInfo> =>
  unwrap(api.POST('/api/v1/password_reset/start', { body: { token } }));

export const finishPasswordReset = async (token: string, password: string): Promise<void> => {
  await unwrap(api.POST('/api/v1/password_reset/finish', { body: { token, password } }));
};
