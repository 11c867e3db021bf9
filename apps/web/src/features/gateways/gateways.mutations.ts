import { unwrap } from '@palisade/api-client';
import type { GatewayToken } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { gatewayKeys } from './gateways.queries';

export const useDeleteGateway = () =>
  useMutation({
    mutationFn: async ({ locationId, gatewayId }: { locationId: number; gatewayId: number }) => {
      await unwrap(api.DELETE('/api/v1/network/{id}/gateways/{gatewayId}', { params: { path: { id: locationId, gatewayId } } }));
    },
    meta: { invalidate: [gatewayKeys.status()] },
  });

/** A new token cuts off gateways that hold the old one (they must be reconfigured). */
export const useRotateGatewayToken = () =>
  useMutation({
    mutationFn: async (id: number): Promise<GatewayToken> => unwrap(api.POST('/api/v1/network/{id}/token', { params: { path: { id } } })),
    meta: { invalidate: [gatewayKeys.all] },
  });
