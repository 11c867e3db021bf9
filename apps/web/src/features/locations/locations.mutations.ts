import { unwrap } from '@palisade/api-client';
import type { ImportedPeer, Network, NetworkBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { deviceKeys } from '@/features/devices/devices.queries';
import { api } from '@/lib/api';
import { locationKeys } from './locations.queries';

export interface ImportBody {
  name: string;
  endpoint: string;
  config: string;
  allowed_groups: string[];
}

export type { ImportedPeer } from '@palisade/contracts';

export interface MappedDevice {
  name: string;
  wireguard_pubkey: string;
  wireguard_ips: string[];
  user_id: number;
}

export const useCreateLocation = () =>
  useMutation({
    mutationFn: async (body: NetworkBody): Promise<Network> => unwrap(api.POST('/api/v1/network', { body })),
    meta: { invalidate: [locationKeys.all] },
  });

export const useUpdateLocation = () =>
  useMutation({
    mutationFn: async ({ id, body }: { id: number; body: NetworkBody }): Promise<Network> =>
      unwrap(api.PUT('/api/v1/network/{id}', { params: { path: { id } }, body })),
    meta: { invalidate: [locationKeys.all] },
  });

export const useDeleteLocation = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/network/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [locationKeys.all, deviceKeys.all] },
  });

export const useImportLocation = () =>
  useMutation({
    mutationFn: async (body: ImportBody): Promise<{ network: Network; devices: ImportedPeer[] }> =>
      unwrap(api.POST('/api/v1/network/import', { body })),
    meta: { invalidate: [locationKeys.all, deviceKeys.all] },
  });

export const useMapDevices = () =>
  useMutation({
    mutationFn: async ({ id, devices }: { id: number; devices: MappedDevice[] }) => {
      await unwrap(api.POST('/api/v1/network/{id}/devices', { params: { path: { id } }, body: { devices } }));
    },
    meta: { invalidate: [locationKeys.all, deviceKeys.all] },
  });
