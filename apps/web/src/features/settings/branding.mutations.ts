import { unwrap } from '@palisade/api-client';
import { type LogoKind, SETTINGS_ID, type Settings } from '@palisade/contracts';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { pushToast } from '@/components/toast-store';
import { appKeys } from '@/features/app/app.queries';
import { useAppStore } from '@/features/app/app-store';
import { useTranslation } from '@/i18n/use-translation';
import { api } from '@/lib/api';
import { problemMessage } from '@/lib/problem-message';
import { settingsKeys } from './settings.queries';

/** The answer is the new settings and essentials: the title, login logo and nav logo change at once. */
function applySaved(queryClient: QueryClient, saved: Settings) {
  queryClient.setQueryData(settingsKeys.all, saved);
  queryClient.setQueryData(appKeys.essentials, (old: object | undefined) => ({ ...old, ...saved }));
  useAppStore.getState().setSettings(saved);
}

/** The file as base64 (without the `data:` prefix). */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * PUT /settings/logo/{kind}: the server checks, stores and serves the file and points the setting
 * at it. The toasts are the mutation's own: the form that started it is remounted with the saved
 * settings before a per-call callback could run.
 */
export function useUploadLogo() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: async ({ kind, file }: { kind: LogoKind; file: Blob }): Promise<Settings> =>
      unwrap(api.PUT('/api/v1/settings/logo/{kind}', { params: { path: { kind } }, body: { data: await base64Of(file) } })),
    onSuccess: (saved, { kind }) => {
      applySaved(queryClient, saved);
      pushToast({ id: `logo-${kind}`, kind: 'success', message: t('settings.logoUploaded') });
    },
    onError: (error, { kind }) => pushToast({ id: `logo-${kind}`, kind: 'error', message: problemMessage(t, error) }),
    meta: { invalidate: [settingsKeys.all, appKeys.essentials] },
  });
}

/** PUT /settings/{id}: the default instance name and logos (toasts as above). */
export function useRestoreBranding() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: async (): Promise<Settings> => unwrap(api.PUT('/api/v1/settings/{id}', { params: { path: { id: SETTINGS_ID } } })),
    onSuccess: (saved) => {
      applySaved(queryClient, saved);
      pushToast({ id: 'branding-restored', kind: 'success', message: t('settings.brandingRestored') });
    },
    onError: (error) => pushToast({ id: 'branding-restored', kind: 'error', message: problemMessage(t, error) }),
    meta: { invalidate: [settingsKeys.all, appKeys.essentials] },
  });
}
