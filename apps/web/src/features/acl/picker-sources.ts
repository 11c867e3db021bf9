import { useQuery } from '@tanstack/react-query';
import { userLabel } from '@/features/locations/MapUserPicker';
import { networkDevicesQueryOptions } from '@/features/network-devices/network-devices.queries';
import { usersListQueryOptions } from '@/features/users/users.queries';
import type { PickerSource } from './SearchPicker';

const PAGE = 10;

/** Users matching the search (name, username or email): one small server page. Chosen by username. */
export function useUserMatches(search: string, isActive: boolean): PickerSource {
  const users = useQuery({
    ...usersListQueryOptions({ page: 1, per_page: PAGE, filter: 'all', sort: 'username', search }),
    enabled: isActive,
  });
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
