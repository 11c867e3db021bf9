import { unwrap } from '@palisade/api-client';
import type { OauthAuthorize, OpenidVerify } from '@palisade/contracts';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { leaveConsole } from './leave-console';

/** POST /openid/verify: what the waiting authorization of this browser asks for (reads only). */
export const consentRequestQueryOptions = (interaction: string) =>
  queryOptions({
    queryKey: ['openid-consent', interaction] as const,
    queryFn: (): Promise<OpenidVerify> => unwrap(api.POST('/api/v1/openid/verify', { body: { interaction } })),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

/** POST /oauth/authorize?interaction=…&allow=…: Accept or Cancel; answers where the browser goes next. */
export function useConsentDecision(interaction: string) {
  return useMutation({
    mutationFn: (allow: boolean): Promise<OauthAuthorize> =>
      unwrap(api.POST('/api/v1/oauth/authorize', { params: { query: { interaction, allow: allow ? 'true' : 'false' } } })),
    onSuccess: ({ url }) => leaveConsole.to(url),
  });
}
