import { unwrap } from '@palisade/api-client';
import type { Gateway, GatewayToken, LocationGateways } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const gatewayKeys = {
  all: ['gateways'] as const,
  status: () => [...gatewayKeys.all, 'status'] as const,
  allLocations: () => [...gatewayKeys.status(), 'all'] as const,
  location: (id: number) => [...gatewayKeys.status(), id] as const,
  token: (id: number) => [...gatewayKeys.all, 'token', id] as const,
};

/**
 * Spec §4: gateway status is checked on demand, so these are disabled until the admin asks
 * (`enabled`), never retried, and not cached past the moment they answer.
 */
const onDemand = { retry: false, staleTime: 0, gcTime: 60_000 } as const;

export const allGatewaysQueryOptions = (isEnabled: boolean) =>
  queryOptions({
    queryKey: gatewayKeys.allLocations(),
    queryFn: async ({ signal }): Promise<LocationGateways[]> => unwrap(api.GET('/api/v1/network/gateways', { signal })),
    enabled: isEnabled,
    ...onDemand,
  });

export const locationGatewaysQueryOptions = (id: number, isEnabled: boolean) =>
  queryOptions({
    queryKey: gatewayKeys.location(id),
    queryFn: async ({ signal }): Promise<Gateway[]> =>
      unwrap(api.GET('/api/v1/network/{id}/gateways', { params: { path: { id } }, signal })),
    enabled: isEnabled,
    ...onDemand,
  });

export const gatewayTokenQueryOptions = (id: number) =>
  queryOptions({
    queryKey: gatewayKeys.token(id),
    queryFn: async ({ signal }): Promise<GatewayToken> =>
      unwrap(api.GET('/api/v1/network/{id}/token', { params: { path: { id } }, signal })),
    staleTime: Number.POSITIVE_INFINITY,
  });
