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
 * Spec §4 gateway status (all, some or none connected): kept live instead of waiting for a click.
 * Refetched every 15 s while the page is visible (TanStack Query pauses the interval in a hidden
 * tab) and not retried, so a failing call shows the error state on the next tick rather than
 * after a series of retries.
 */
export const GATEWAY_STATUS_INTERVAL_MS = 15_000;
const live = { retry: false, staleTime: 0, refetchInterval: GATEWAY_STATUS_INTERVAL_MS, refetchIntervalInBackground: false } as const;

export const allGatewaysQueryOptions = () =>
  queryOptions({
    queryKey: gatewayKeys.allLocations(),
    queryFn: async ({ signal }): Promise<LocationGateways[]> => unwrap(api.GET('/api/v1/network/gateways', { signal })),
    ...live,
  });

export const locationGatewaysQueryOptions = (id: number) =>
  queryOptions({
    queryKey: gatewayKeys.location(id),
    queryFn: async ({ signal }): Promise<Gateway[]> =>
      unwrap(api.GET('/api/v1/network/{id}/gateways', { params: { path: { id } }, signal })),
    ...live,
  });

export const gatewayTokenQueryOptions = (id: number) =>
  queryOptions({
    queryKey: gatewayKeys.token(id),
    queryFn: async ({ signal }): Promise<GatewayToken> =>
      unwrap(api.GET('/api/v1/network/{id}/token', { params: { path: { id } }, signal })),
    staleTime: Number.POSITIVE_INFINITY,
  });
