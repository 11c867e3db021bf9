import { createFileRoute } from '@tanstack/react-router';
import { LocationWizardPage } from '@/features/locations/LocationWizardPage';
import { groupNamesQueryOptions } from '@/features/locations/locations.queries';

export const Route = createFileRoute('/_authed/_admin/locations/new')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(groupNamesQueryOptions);
  },
  component: LocationWizardPage,
});
