import { unwrap } from '@palisade/api-client';
import type { CreateExternalProviderBody, ExternalProvider, ExternalProviderList } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const externalProviderKeys = { all: ['settings', 'openid-provider'] as const };

/** GET /openid/provider: the provider (or null) and the redirect URL to register at it. */
export const externalProviderQueryOptions = queryOptions({
  queryKey: externalProviderKeys.all,
  queryFn: async (): Promise<ExternalProviderList> => unwrap(api.GET('/api/v1/openid/provider')),
});

/** POST /openid/provider when none exists, PUT /openid/provider/{name} otherwise. */
export function useSaveExternalProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ current, body }: { current: string | undefined; body: CreateExternalProviderBody }): Promise<ExternalProvider> =>
      current === undefined
        ? unwrap(api.POST('/api/v1/openid/provider', { body }))
        : unwrap(api.PUT('/api/v1/openid/provider/{name}', { params: { path: { name: current } }, body })),
    meta: { invalidate: [externalProviderKeys.all, ['auth', 'external', 'info']] },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: externalProviderKeys.all }),
  });
}

/** DELETE /openid/provider/{name}. */
export function useDeleteExternalProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      await unwrap(api.DELETE('/api/v1/openid/provider/{name}', { params: { path: { name } } }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: externalProviderKeys.all }),
  });
}
