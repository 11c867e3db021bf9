import { ApiError } from '@palisade/api-client';
import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { appKeys } from '@/features/app/app.queries';
import { useAuthStore } from '@/features/auth/auth-store';

declare module '@tanstack/react-query' {
  interface Register {
    /** Each mutation names the query keys it makes stale; one MutationCache invalidates them. */
    mutationMeta: { invalidate?: readonly QueryKey[] };
  }
}

const isClientError = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

/**
 * A 401 on any call while a user is stored means the session ended: reset (spec §4 logs out) and
 * remember why, so the login page says so. A `module.disabled` answer means the module switches
 * changed since the console loaded them: refresh them, so its screens and navigation go away.
 */
export function onAnyError(queryClient: QueryClient, error: unknown) {
  if (!(error instanceof ApiError)) return;
  // The public enrollment flow answers 401 for its own expired cookie: that says nothing about the console session.
  const isConsoleSession = error.code !== 'enrollment.token_invalid';
  if (error.status === 401 && isConsoleSession && useAuthStore.getState().user) useAuthStore.getState().endSession();
  if (error.code === 'module.disabled') void queryClient.invalidateQueries({ queryKey: appKeys.essentials });
}

export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: (failures, error) => !isClientError(error) && failures < 1,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
    queryCache: new QueryCache({ onError: (error) => onAnyError(queryClient, error) }),
    mutationCache: new MutationCache({
      onError: (error) => onAnyError(queryClient, error),
      onSuccess: async (_data, _variables, _context, mutation) => {
        const keys = mutation.meta?.invalidate ?? [];
        await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      },
    }),
  });
  return queryClient;
}
