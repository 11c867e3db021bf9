import { unwrap } from '@palisade/api-client';
import type { NetworkDevice, PendingNetworkDevice } from '@palisade/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { unwrapText } from '@/lib/text-response';

export interface NetworkDevicesParams {
  page: number;
  per_page: number;
  search?: string;
}

export interface NetworkDeviceList {
  items: NetworkDevice[];
  page: number;
  per_page: number;
  total: number;
}

export const networkDeviceKeys = {
  all: ['network-devices'] as const,
  lists: () => [...networkDeviceKeys.all, 'list'] as const,
  list: (params: NetworkDevicesParams) => [...networkDeviceKeys.lists(), params] as const,
  pending: () => [...networkDeviceKeys.all, 'pending'] as const,
  config: (id: number) => [...networkDeviceKeys.all, 'config', id] as const,
  suggestedIps: (locationId: number) => [...networkDeviceKeys.all, 'ip', locationId] as const,
  checkIps: (locationId: number, ips: readonly string[]) => [...networkDeviceKeys.all, 'ip-check', locationId, ips] as const,
};

export const networkDevicesQueryOptions = (params: NetworkDevicesParams) =>
  queryOptions({
    queryKey: networkDeviceKeys.list(params),
    queryFn: async ({ signal }): Promise<NetworkDeviceList> =>
      unwrap(api.GET('/api/v1/device/network', { params: { query: params }, signal })),
    placeholderData: keepPreviousData,
  });

/** Devices announced with a CLI token whose client has not enrolled yet (few: tokens expire in a day). */
export const pendingNetworkDevicesQueryOptions = queryOptions({
  queryKey: networkDeviceKeys.pending(),
  queryFn: async ({ signal }): Promise<PendingNetworkDevice[]> => unwrap(api.GET('/api/v1/device/network/pending', { signal })),
});

export const networkDeviceConfigQueryOptions = (id: number) =>
  queryOptions({
    queryKey: networkDeviceKeys.config(id),
    queryFn: async ({ signal }): Promise<string> =>
      unwrapText(api.GET('/api/v1/device/network/{id}/config', { params: { path: { id } }, parseAs: 'text', signal })),
    retry: false,
    staleTime: 0,
  });

/** The first free IP of each address of the location. */
export const suggestedIpsQueryOptions = (locationId: number) =>
  queryOptions({
    queryKey: networkDeviceKeys.suggestedIps(locationId),
    queryFn: async ({ signal }): Promise<string[]> =>
      (await unwrap(api.GET('/api/v1/device/network/ip/{locationId}', { params: { path: { locationId } }, signal }))).ips,
    enabled: locationId > 0,
    staleTime: 0,
  });

export interface IpCheck {
  ip: string;
  valid: boolean;
  code?: string;
}

/** Live check of typed IPs against the location (invalid, outside, in use). */
export const checkIpsQueryOptions = (locationId: number, ips: readonly string[]) =>
  queryOptions({
    queryKey: networkDeviceKeys.checkIps(locationId, ips),
    queryFn: async ({ signal }): Promise<IpCheck[]> =>
      (
        await unwrap(
          api.POST('/api/v1/device/network/ip/{location}', { params: { path: { location: locationId } }, body: { ips: [...ips] }, signal }),
        )
      ).results,
    enabled: locationId > 0 && ips.length > 0,
    staleTime: 0,
    retry: false,
  });
