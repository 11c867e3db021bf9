import { unwrap } from '@palisade/api-client';
import type { Device, DeviceConfig } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { deviceKeys } from './devices.queries';

export interface DeviceBody {
  name: string;
  wireguard_pubkey: string;
}

export const useCreateDevice = () =>
  useMutation({
    mutationFn: async ({ username, body }: { username: string; body: DeviceBody }): Promise<{ device: Device; configs: DeviceConfig[] }> =>
      unwrap(api.POST('/api/v1/device/{username}', { params: { path: { username } }, body })),
    meta: { invalidate: [deviceKeys.all] },
  });

export const useUpdateDevice = () =>
  useMutation({
    mutationFn: async ({ id, body }: { id: number; body: DeviceBody }): Promise<Device> =>
      unwrap(api.PUT('/api/v1/device/{id}', { params: { path: { id } }, body })),
    meta: { invalidate: [deviceKeys.all] },
  });

export const useDeleteDevice = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/device/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [deviceKeys.all] },
  });
