import { unwrap } from '@palisade/api-client';
import type { EnterpriseInfo } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { licenceKeys } from './licence.queries';

/** PUT /licence: the answer is the new enterprise info (the card and every upgrade prompt follow it). */
export function useSetLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (licenceKey: string): Promise<EnterpriseInfo> =>
      unwrap(api.PUT('/api/v1/licence', { body: { licence_key: licenceKey } })),
    onSuccess: (info) => queryClient.setQueryData(licenceKeys.enterpriseInfo, info),
  });
}

/** DELETE /licence. */
export function useRemoveLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<EnterpriseInfo> => unwrap(api.DELETE('/api/v1/licence')),
    onSuccess: (info) => queryClient.setQueryData(licenceKeys.enterpriseInfo, info),
  });
}
