import { unwrap } from '@palisade/api-client';
import type { PatchSettingsBody, Settings } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingsKeys } from '@/features/settings/settings.queries';
import { api } from '@/lib/api';

/** PATCH /settings with the enrollment fields only: the other settings are left as they are. */
export function useUpdateEnrollmentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: PatchSettingsBody): Promise<Settings> => unwrap(api.PATCH('/api/v1/settings', { body })),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.all, saved),
    meta: { invalidate: [settingsKeys.all] },
  });
}
