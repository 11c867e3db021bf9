import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '@/features/settings/SettingsPage';
import { validateSettingsSearch } from '@/features/settings/settings-tabs';
import { settingsQueryOptions } from '@/features/settings/settings.queries';

export const Route = createFileRoute('/_authed/_admin/settings')({
  validateSearch: validateSettingsSearch,
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(settingsQueryOptions);
  },
  component: SettingsPage,
});
