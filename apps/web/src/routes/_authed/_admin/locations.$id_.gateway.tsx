import { createFileRoute } from '@tanstack/react-router';
import { GatewaySetupPage } from '@/features/gateways/GatewaySetupPage';
import { gatewayTokenQueryOptions } from '@/features/gateways/gateways.queries';
import { locationQueryOptions } from '@/features/locations/locations.queries';

export const Route = createFileRoute('/_authed/_admin/locations/$id_/gateway')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(locationQueryOptions(Number(params.id)));
    void context.queryClient.prefetchQuery(gatewayTokenQueryOptions(Number(params.id)));
  },
  component: GatewaySetupPage,
});
