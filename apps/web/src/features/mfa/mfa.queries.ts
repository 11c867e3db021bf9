import { unwrap } from '@palisade/api-client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const mfaKeys = {
  status: ['mfa', 'status'] as const,
};

/** The signed-in user's second factors: enabled methods, the default, recovery codes left. */
export const mfaStatusQueryOptions = queryOptions({
  queryKey: mfaKeys.status,
  queryFn: () => unwrap(api.GET('/api/v1/auth/mfa')),
});
