import { unwrap } from '@palisade/api-client';
import type { VpnSession, VpnSessionFinishBody, VpnSessionStartBody, WebauthnOptions } from '@palisade/contracts';
import { startAuthentication } from '@simplewebauthn/browser';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { asCredentialResponse } from '@/features/mfa/security-keys';
import { api } from '@/lib/api';

/** VPN sessions of MFA-protected locations (docs/mfa.md): the signed-in user's own. */
export const vpnSessionKeys = { all: ['vpn-sessions'] as const };

export const vpnSessionsQueryOptions = queryOptions({
  queryKey: vpnSessionKeys.all,
  queryFn: async ({ signal }): Promise<VpnSession[]> => unwrap(api.GET('/api/v1/vpn_session', { signal })),
});

/**
 * The active session of a device in a location, if any. The API client drops null fields from
 * responses (spec §1), so an active session has no `ended_at` at all rather than `null`.
 */
export const activeSession = (sessions: VpnSession[] | undefined, deviceId: number, locationId: number) =>
  sessions?.find((s) => s.device_id === deviceId && s.location_id === locationId && !s.ended_at);

/** A challenge for the user's default method, or for `method` (with `email` the API mails a code). */
export const useStartVpnSession = () =>
  useMutation({
    mutationFn: async (body: VpnSessionStartBody) => unwrap(api.POST('/api/v1/vpn_session/start', { body })),
  });

/** Finishes with a 6-digit code (authenticator app or email); answers the session and its preshared key. */
export const useFinishVpnSession = () =>
  useMutation({
    mutationFn: async (body: VpnSessionFinishBody) => unwrap(api.POST('/api/v1/vpn_session/finish', { body })),
    meta: { invalidate: [vpnSessionKeys.all] },
  });

/** Finishes with a security key: the browser signs the challenge's WebAuthn options, the API checks the assertion. */
export const useFinishVpnSessionWithKey = () =>
  useMutation({
    mutationFn: async ({ challenge, options }: { challenge: string; options: WebauthnOptions }) => {
      // biome-ignore lint/suspicious/noExplicitAny: the server's request options JSON, passed to the browser as is
      const credential = await startAuthentication({ optionsJSON: options as any });
      return unwrap(api.POST('/api/v1/vpn_session/finish', { body: { challenge, credential: asCredentialResponse(credential) } }));
    },
    meta: { invalidate: [vpnSessionKeys.all] },
  });

export const useEndVpnSession = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/vpn_session/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [vpnSessionKeys.all] },
  });
