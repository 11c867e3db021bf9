import { unwrap } from '@palisade/api-client';
import type { VpnSession } from '@palisade/contracts';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** VPN sessions of MFA-protected locations (docs/mfa.md): the signed-in user's own. */
export const vpnSessionKeys = { all: ['vpn-sessions'] as const };

export const vpnSessionsQueryOptions = queryOptions({
  queryKey: vpnSessionKeys.all,
  queryFn: async ({ signal }): Promise<VpnSession[]> => unwrap(api.GET('/api/v1/vpn_session', { signal })),
});

/** The active session of a device in a location, if any. */
export const activeSession = (sessions: VpnSession[] | undefined, deviceId: number, locationId: number) =>
  sessions?.find((s) => s.device_id === deviceId && s.location_id === locationId && s.ended_at === null);

export const useStartVpnSession = () =>
  useMutation({
    mutationFn: async (body: { location_id: number; device_pubkey: string }) => unwrap(api.POST('/api/v1/vpn_session/start', { body })),
  });

export const useFinishVpnSession = () =>
  useMutation({
    mutationFn: async (body: { challenge: string; code: string }) => unwrap(api.POST('/api/v1/vpn_session/finish', { body })),
    meta: { invalidate: [vpnSessionKeys.all] },
  });

export const useEndVpnSession = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/vpn_session/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [vpnSessionKeys.all] },
  });
