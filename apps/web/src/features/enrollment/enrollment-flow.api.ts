import { unwrap } from '@palisade/api-client';
import type { CreatedDevice, EnrollmentFinished, EnrollmentSession } from '@palisade/contracts';
import type { Language } from '@/i18n/languages';
import { api } from '@/lib/api';

/*
 * The public enrollment calls. The flow runs on its own short-lived cookie set by `start` (not a
 * console session).
 */

export const enrollmentFlowKeys = {
  session: ['enrollment', 'session'] as const,
};

export const startEnrollment = async (token: string): Promise<EnrollmentSession> =>
  unwrap(api.POST('/api/v1/enrollment/start', { body: { token } }));

export const getEnrollmentSession = async (): Promise<EnrollmentSession> => unwrap(api.GET('/api/v1/enrollment/session'));

export const setEnrollmentPassword = async (password: string): Promise<void> => {
  await unwrap(api.POST('/api/v1/enrollment/password', { body: { password } }));
};

export const addEnrollmentDevice = async (body: { name: string; wireguard_pubkey: string }): Promise<CreatedDevice> =>
  unwrap(api.POST('/api/v1/enrollment/device', { body }));

export const finishEnrollment = async (locale: Language): Promise<EnrollmentFinished> =>
  unwrap(api.POST('/api/v1/enrollment/finish', { body: { locale } }));
