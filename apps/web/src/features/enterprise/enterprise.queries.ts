import { unwrap } from '@palisade/api-client';
import type { EnterpriseSettings } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { useAppStore } from '@/features/app/app-store';
import { api } from '@/lib/api';

export const enterpriseKeys = {
  settings: ['settings_enterprise'] as const,
};

/** Spec §4/§8: fetched once a user is present, stored in the app store; a failure is only logged. */
export const enterpriseSettingsQueryOptions = queryOptions({
  queryKey: enterpriseKeys.settings,
  queryFn: async ({ signal }): Promise<EnterpriseSettings> => {
    try {
      const settings: EnterpriseSettings = await unwrap(api.GET('/api/v1/settings_enterprise', { signal }));
      useAppStore.getState().setEnterpriseSettings(settings);
      return settings;
    } catch (error) {
      console.error('Failed to load enterprise settings', error);
      throw error;
    }
  },
  retry: false,
});
