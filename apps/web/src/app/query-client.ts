import { ApiError } from '@palisade/api-client';
import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { useAuthStore } from '@/features/auth/auth-store';

declare module '@tanstack/react-query' {
  interface Register {
    /** Each mutation names the query keys it makes stale; one MutationCache invalidates them. */
    mutationMeta: { invalidate?: readonly QueryKey[] };
  }
}

const isClientError = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

/** A 401 on any call while a user is stored means the session ended: reset (spec §4 logs out). */
function onAnyError(error: unknown) {
  if (error instanceof ApiError && error.status === 401 && useAuthStore.getState().user) {
    useAuthStore.getState().reset();
  }
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
    queryCache: new QueryCache({ onError: onAnyError }),
    mutationCache: new MutationCache({
      onError: onAnyError,
      onSuccess: async (_data, _variables, _context, mutation) => {
        const keys = mutation.meta?.invalidate ?? [];
        await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      },
    }),
  });
  return queryClient;
}
