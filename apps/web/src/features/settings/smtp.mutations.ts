import { unwrap } from '@palisade/api-client';
import type { MailTestBody, PatchSettingsBody, Settings } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { settingsKeys } from './settings.queries';

/** PATCH /settings with the SMTP fields only (the Global tab's fields stay as they are). */
export function useUpdateSmtpSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: PatchSettingsBody): Promise<Settings> => unwrap(api.PATCH('/api/v1/settings', { body })),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.all, saved),
    meta: { invalidate: [settingsKeys.all] },
  });
}

/** POST /mail/test: the API sends at once and answers with the server's verdict. */
export function useSendTestMail() {
  return useMutation({
    mutationFn: async (body: MailTestBody) => {
      await unwrap(api.POST('/api/v1/mail/test', { body }));
    },
  });
}
