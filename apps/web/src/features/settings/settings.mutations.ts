import { unwrap } from '@palisade/api-client';
import type { Settings, UpdateSettingsBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { appKeys } from '@/features/app/app.queries';
import { api } from '@/lib/api';
import { settingsKeys } from './settings.queries';

export const useUpdateSettings = () =>
  useMutation({
    mutationFn: async (body: UpdateSettingsBody): Promise<Settings> => unwrap(api.PUT('/api/v1/settings', { body })),
    meta: { invalidate: [settingsKeys.all, appKeys.essentials] },
  });
