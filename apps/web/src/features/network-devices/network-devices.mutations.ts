import type { z } from 'zod';
import { unwrap } from '@palisade/api-client';
import type { CliTokenSchema, NetworkDevice } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { networkDeviceKeys } from './network-devices.queries';

export interface CreateNetworkDeviceBody {
  name: string;
  location_id: number;
  assigned_ips?: string[];
  wireguard_pubkey: string;
  description?: string;
}

export interface StartCliBody {
  name: string;
  location_id: number;
  assigned_ips?: string[];
  description?: string;
}

export type CliToken = z.infer<typeof CliTokenSchema>;

export const useCreateNetworkDevice = () =>
  useMutation({
    mutationFn: async (body: CreateNetworkDeviceBody): Promise<{ device: NetworkDevice; config: string }> =>
      unwrap(api.POST('/api/v1/device/network', { body })),
    meta: { invalidate: [networkDeviceKeys.all] },
  });

export const useUpdateNetworkDevice = () =>
  useMutation({
    mutationFn: async ({
      id,
      body,
    }: {
      id: number;
      body: { name: string; assigned_ips: string[]; description?: string };
    }): Promise<NetworkDevice> => unwrap(api.PUT('/api/v1/device/network/{id}', { params: { path: { id } }, body })),
    meta: { invalidate: [networkDeviceKeys.all] },
  });

export const useDeleteNetworkDevice = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/device/network/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [networkDeviceKeys.all] },
  });

/** Removes a device still waiting for its CLI enrollment (its token stops working). */
export const useDeletePendingNetworkDevice = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/device/network/pending/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [networkDeviceKeys.all] },
  });

/** A CLI enrollment token: for a new device (body) or an existing one (id). Shown once. */
export const useStartCli = () =>
  useMutation({
    mutationFn: async (target: { id: number } | { body: StartCliBody }): Promise<CliToken> =>
      'id' in target
        ? unwrap(api.POST('/api/v1/device/network/start_cli/{id}', { params: { path: { id: target.id } } }))
        : unwrap(api.POST('/api/v1/device/network/start_cli', { body: target.body })),
    meta: { invalidate: [networkDeviceKeys.all] },
  });
