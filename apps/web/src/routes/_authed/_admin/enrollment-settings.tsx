import { createFileRoute } from '@tanstack/react-router';
import { EnrollmentSettingsPage } from '@/features/enrollment/EnrollmentSettingsPage';
import { settingsQueryOptions } from '@/features/settings/settings.queries';

export const Route = createFileRoute('/_authed/_admin/enrollment-settings')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(settingsQueryOptions);
  },
  component: EnrollmentSettingsPage,
});
