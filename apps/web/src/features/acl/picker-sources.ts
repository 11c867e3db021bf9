import { unwrap } from '@palisade/api-client';
import { useQuery } from '@tanstack/react-query';
import { userLabel } from '@/features/locations/MapUserPicker';
import { networkDevicesQueryOptions } from '@/features/network-devices/network-devices.queries';
import { usersListQueryOptions } from '@/features/users/users.queries';
import { api } from '@/lib/api';
import type { PickerSource } from './SearchPicker';
import { aclKeys } from './acl.queries';

const PAGE = 10;

/** Users matching the search (name, username or email): one small server page. Chosen by username. */
const useUserMatchesRaw = (search: string, isActive: boolean) =>
  useQuery({ ...usersListQueryOptions({ page: 1, per_page: PAGE, filter: 'all', sort: 'username', search }), enabled: isActive });

export function useUserMatches(search: string, isActive: boolean): PickerSource {
  const users = useUserMatchesRaw(search, isActive);
  return {
    items: users.data?.items.map((u) => ({ id: u.username, label: userLabel(u) })) ?? [],
    isPending: users.isPending,
    isError: users.isError,
  };
}

/** Network devices matching the search: one small server page. Chosen by id. */
export function useNetworkDeviceMatches(search: string, isActive: boolean): PickerSource {
  const devices = useQuery({ ...networkDevicesQueryOptions({ page: 1, per_page: PAGE, search }), enabled: isActive });
  return {
    items: devices.data?.items.map((d) => ({ id: String(d.id), label: `${d.name} (${d.location_name})` })) ?? [],
    isPending: devices.isPending,
    isError: devices.isError,
  };
}

/** Users matching the search, chosen by id (the access check names a source `user:<id>`). */
export function useUserIdMatches(search: string, isActive: boolean): PickerSource {
  const users = useUserMatchesRaw(search, isActive);
  return { ...users, items: users.data?.items.map((u) => ({ id: String(u.id), label: userLabel(u) })) ?? [] };
}

/** Users' devices matching the search (GET /device?search=…): one small server page. Chosen by id. */
export function useDeviceMatches(search: string, isActive: boolean): PickerSource {
  const devices = useQuery({
    queryKey: [...aclKeys.all, 'device-matches', search] as const,
    queryFn: async ({ signal }) => unwrap(api.GET('/api/v1/device', { params: { query: { page: 1, per_page: PAGE, search } }, signal })),
    enabled: isActive,
  });
  return {
    items: devices.data?.items.map((d) => ({ id: String(d.id), label: d.username ? `${d.name} (${d.username})` : d.name })) ?? [],
    isPending: devices.isPending,
    isError: devices.isError,
  };
}
