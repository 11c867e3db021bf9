import { unwrap } from '@palisade/api-client';
import type { CreateExternalProviderBody, DirectorySyncTestResult, ExternalProvider } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { externalProviderKeys } from './OpenIdProviderTab.queries';

/** PUT /openid/provider/{name}: the provider with its directory-sync fields. */
export function useSaveDirectorySync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, body }: { name: string; body: CreateExternalProviderBody }): Promise<ExternalProvider> =>
      unwrap(api.PUT('/api/v1/openid/provider/{name}', { params: { path: { name } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: externalProviderKeys.all }),
  });
}

/** GET /test_directory_sync: reads the directory with the saved settings, changes nothing. */
export function useTestDirectorySync() {
  return useMutation({
    mutationFn: async (): Promise<DirectorySyncTestResult> => unwrap(api.GET('/api/v1/test_directory_sync')),
  });
}
