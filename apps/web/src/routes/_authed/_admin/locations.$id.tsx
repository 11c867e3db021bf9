import { createFileRoute } from '@tanstack/react-router';
import { LocationEditPage } from '@/features/locations/LocationEditPage';
import { groupNamesQueryOptions, locationQueryOptions } from '@/features/locations/locations.queries';

export const Route = createFileRoute('/_authed/_admin/locations/$id')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(locationQueryOptions(Number(params.id)));
    void context.queryClient.prefetchQuery(groupNamesQueryOptions);
  },
  component: LocationEditPage,
});
