import { unwrap } from '@palisade/api-client';
import type { Group, ImportedPeer, Network } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { groupKeys } from '@/features/groups/groups.queries';
import { api } from '@/lib/api';

export const locationKeys = {
  all: ['locations'] as const,
  list: () => [...locationKeys.all, 'list'] as const,
  detail: (id: number) => [...locationKeys.all, 'detail', id] as const,
  pendingPeers: (id: number) => [...locationKeys.all, 'pending-peers', id] as const,
};

export const locationsQueryOptions = queryOptions({
  queryKey: locationKeys.list(),
  queryFn: async ({ signal }): Promise<Network[]> => unwrap(api.GET('/api/v1/network', { signal })),
});

export const locationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: locationKeys.detail(id),
    queryFn: async ({ signal }): Promise<Network> => unwrap(api.GET('/api/v1/network/{id}', { params: { path: { id } }, signal })),
  });

/** Imported peers of a location still waiting to be mapped (the import's map step resumes with them). */
export const pendingPeersQueryOptions = (id: number) =>
  queryOptions({
    queryKey: locationKeys.pendingPeers(id),
    queryFn: async ({ signal }): Promise<ImportedPeer[]> =>
      unwrap(api.GET('/api/v1/network/{id}/devices', { params: { path: { id } }, signal })),
  });

/** Group names for the "allowed groups" picker. */
export const groupNamesQueryOptions = queryOptions({
  queryKey: [...groupKeys.all, 'names'] as const,
  queryFn: async ({ signal }): Promise<string[]> => {
    const groups: Group[] = await unwrap(api.GET('/api/v1/group', { signal }));
    return groups.map((g) => g.name).sort((a, b) => a.localeCompare(b));
  },
});
