import { unwrap } from '@palisade/api-client';
import type { Device } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { unwrapText } from '@/lib/text-response';

export const deviceKeys = {
  all: ['devices'] as const,
  user: (username: string) => [...deviceKeys.all, 'user', username] as const,
  config: (networkId: number, deviceId: number) => [...deviceKeys.all, 'config', networkId, deviceId] as const,
};

export const userDevicesQueryOptions = (username: string) =>
  queryOptions({
    queryKey: deviceKeys.user(username),
    queryFn: async ({ signal }): Promise<Device[]> =>
      unwrap(api.GET('/api/v1/device/user/{username}', { params: { path: { username } }, signal })),
  });

/** The config text of one device in one location; its `PrivateKey` line is a placeholder. */
export const deviceConfigQueryOptions = (networkId: number, deviceId: number) =>
  queryOptions({
    queryKey: deviceKeys.config(networkId, deviceId),
    queryFn: async ({ signal }): Promise<string> =>
      unwrapText(
        api.GET('/api/v1/network/{network_id}/device/{device_id}/config', {
          params: { path: { network_id: networkId, device_id: deviceId } },
          parseAs: 'text',
          signal,
        }),
      ),
    retry: false,
    staleTime: 0,
  });
