import { createFileRoute } from '@tanstack/react-router';
import { LocationMapPage } from '@/features/locations/LocationMapPage';
import { locationQueryOptions, pendingPeersQueryOptions } from '@/features/locations/locations.queries';

export const Route = createFileRoute('/_authed/_admin/locations/$id_/map')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(locationQueryOptions(Number(params.id)));
    void context.queryClient.prefetchQuery(pendingPeersQueryOptions(Number(params.id)));
  },
  component: LocationMapPage,
});
