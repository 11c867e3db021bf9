import { unwrap } from '@palisade/api-client';
import type { ActivityLogPage, LdapSyncResult } from '@palisade/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { activityKeys } from '@/features/activity-log/activity-log.queries';
import { userKeys } from '@/features/users/users.queries';

/** The latest `ldap.sync_completed` entry of the activity log: the last run's counts. */
export const lastLdapSyncQueryOptions = queryOptions({
  queryKey: [...activityKeys.lists(), 'ldap-sync-last'] as const,
  queryFn: async ({ signal }): Promise<ActivityLogPage> =>
    unwrap(api.GET('/api/v1/activity_log', { params: { query: { event: ['ldap.sync_completed'], per_page: 1 } }, signal })),
});

/** POST /ldap/sync: a run now, or with `dryRun` the plan only (nothing changes). */
export function useLdapSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (dryRun: boolean): Promise<LdapSyncResult> => unwrap(api.POST('/api/v1/ldap/sync', { body: { dry_run: dryRun } })),
    onSuccess: async (result) => {
      if (result.dry_run) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: activityKeys.all }),
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
      ]);
    },
  });
}
