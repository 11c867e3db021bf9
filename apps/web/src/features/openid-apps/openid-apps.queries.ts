import { unwrap } from '@palisade/api-client';
import type { OAuthClient } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const openIdAppKeys = {
  all: ['openid-apps'] as const,
  list: () => [...openIdAppKeys.all, 'list'] as const,
};

/** Every OpenID app (an administrator's list, not paged); search and filter happen here. Never a secret. */
export const openIdAppsQueryOptions = queryOptions({
  queryKey: openIdAppKeys.list(),
  queryFn: async ({ signal }): Promise<OAuthClient[]> => unwrap(api.GET('/api/v1/oauth', { signal })),
});
