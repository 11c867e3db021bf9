import { createFileRoute } from '@tanstack/react-router';
import { NetworkDevicesPage } from '@/features/network-devices/NetworkDevicesPage';
import { networkDevicesQueryOptions } from '@/features/network-devices/network-devices.queries';

export const Route = createFileRoute('/_authed/_admin/network-devices')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(networkDevicesQueryOptions({ page: 1, per_page: 50 }));
  },
  component: NetworkDevicesPage,
});
