import { unwrap } from '@palisade/api-client';
import type { EnterpriseSettings, PatchEnterpriseSettingsBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useAppStore } from '@/features/app/app-store';
import { api } from '@/lib/api';
import { enterpriseKeys } from './enterprise.queries';

export const usePatchEnterpriseSettings = () =>
  useMutation({
    mutationFn: async (body: PatchEnterpriseSettingsBody): Promise<EnterpriseSettings> => {
      const settings: EnterpriseSettings = await unwrap(api.PATCH('/api/v1/settings_enterprise', { body }));
      useAppStore.getState().setEnterpriseSettings(settings);
      return settings;
    },
    meta: { invalidate: [enterpriseKeys.settings] },
  });
