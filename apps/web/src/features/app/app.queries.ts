import { unwrap } from '@palisade/api-client';
import type { Info, SettingsEssentials } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { pushToast } from '@/components/toast-store';
import { tNow } from '@/i18n/use-translation';
import { api } from '@/lib/api';
import { useAppStore } from './app-store';

export const appKeys = {
  essentials: ['settings_essentials'] as const,
  info: ['info'] as const,
};

export const essentialsQueryOptions = queryOptions({
  queryKey: appKeys.essentials,
  queryFn: async (): Promise<SettingsEssentials> => {
    const settings: SettingsEssentials = await unwrap(api.GET('/api/v1/settings_essentials'));
    useAppStore.getState().setSettings(settings);
    return settings;
  },
});

/** Fetched once a user is present; a failure shows the spec §8 error toast. */
export const infoQueryOptions = queryOptions({
  queryKey: appKeys.info,
  queryFn: async (): Promise<Info> => {
    try {
      const info: Info = await unwrap(api.GET('/api/v1/info'));
      useAppStore.getState().setAppInfo(info);
      return info;
    } catch (error) {
      pushToast({ id: 'app-info-error', kind: 'error', message: tNow('error.appVersion') });
      throw error;
    }
  },
  retry: false,
  staleTime: Number.POSITIVE_INFINITY,
});
