import { unwrap } from '@palisade/api-client';
import type {
  CreateOAuthClientBody,
  OAuthClient,
  OAuthClientSecret,
  OAuthClientWithSecret,
  UpdateOAuthClientBody,
} from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { openIdAppKeys } from './openid-apps.queries';

const path = (id: string) => ({ params: { path: { id } } });

export const useCreateOpenIdApp = () =>
  useMutation({
    mutationFn: async (body: CreateOAuthClientBody): Promise<OAuthClientWithSecret> => unwrap(api.POST('/api/v1/oauth', { body })),
    meta: { invalidate: [openIdAppKeys.all] },
  });

/** A public app made confidential answers its new secret once (`client_secret`). */
export const useUpdateOpenIdApp = () =>
  useMutation({
    mutationFn: async ({ id, body }: { id: string; body: UpdateOAuthClientBody }): Promise<OAuthClientWithSecret> =>
      unwrap(api.PUT('/api/v1/oauth/{id}', { ...path(id), body })),
    meta: { invalidate: [openIdAppKeys.all] },
  });

/** Enable or disable (spec §7: POST /oauth/{id}). */
export const useSetOpenIdAppState = () =>
  useMutation({
    mutationFn: async ({ id, enabled }: { id: string; enabled: boolean }): Promise<OAuthClient> =>
      unwrap(api.POST('/api/v1/oauth/{id}', { ...path(id), body: { enabled } })),
    meta: { invalidate: [openIdAppKeys.all] },
  });

export const useDeleteOpenIdApp = () =>
  useMutation({
    mutationFn: async (id: string) => {
      await unwrap(api.DELETE('/api/v1/oauth/{id}', path(id)));
    },
    meta: { invalidate: [openIdAppKeys.all] },
  });

/** "Show secret": a mutation, not a query, so the secret is never cached (each showing is recorded). */
export const useRevealOpenIdAppSecret = () =>
  useMutation({
    mutationFn: async (id: string): Promise<OAuthClientSecret> => unwrap(api.GET('/api/v1/oauth/{id}/secret', path(id))),
  });

export const useRegenerateOpenIdAppSecret = () =>
  useMutation({
    mutationFn: async (id: string): Promise<OAuthClientSecret> => unwrap(api.POST('/api/v1/oauth/{id}/secret', path(id))),
  });
