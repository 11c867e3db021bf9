import { unwrap } from '@palisade/api-client';
import type { Settings, UpdateSettingsBody } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appKeys } from '@/features/app/app.queries';
import { useAppStore } from '@/features/app/app-store';
import { api } from '@/lib/api';
import { settingsKeys } from './settings.queries';

/**
 * PUT /settings. The answer is also the new essential settings: written straight into their query
 * and the app store, so the instance name, logos, title and module switches change at once.
 */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateSettingsBody): Promise<Settings> => unwrap(api.PUT('/api/v1/settings', { body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.all, saved);
      queryClient.setQueryData(appKeys.essentials, saved);
      useAppStore.getState().setSettings(saved);
    },
    meta: { invalidate: [settingsKeys.all, appKeys.essentials] },
  });
}
