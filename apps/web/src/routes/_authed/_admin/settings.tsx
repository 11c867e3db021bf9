import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '@/features/settings/SettingsPage';
import { settingsQueryOptions } from '@/features/settings/settings.queries';

export const Route = createFileRoute('/_authed/_admin/settings')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(settingsQueryOptions);
  },
  component: SettingsPage,
});
