import { createFileRoute } from '@tanstack/react-router';
import { LocationsPage } from '@/features/locations/LocationsPage';
import { locationsQueryOptions } from '@/features/locations/locations.queries';

export const Route = createFileRoute('/_authed/_admin/locations/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(locationsQueryOptions);
  },
  component: LocationsPage,
});
