import { unwrap } from '@palisade/api-client';
import type { PatchSettingsBody, Settings } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '@/features/settings/settings.queries';
import { api } from '@/lib/api';

/** PATCH /settings with the gateway notification fields only (every other tab's fields stay). */
export function useUpdateGatewayNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: PatchSettingsBody): Promise<Settings> => unwrap(api.PATCH('/api/v1/settings', { body })),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.all, saved),
    meta: { invalidate: [settingsKeys.all] },
  });
}
