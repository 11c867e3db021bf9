import type { GroupInfo } from '@palisade/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { pushToast } from '@/components/toast-store';
import { useAuthStore } from '@/features/auth/auth-store';
import { meQueryOptions } from '@/features/auth/auth.queries';
import { useTranslation } from '@/i18n/use-translation';
import { type AdminImpact, adminImpact } from './admin-change';
import { groupsQueryOptions } from './groups.queries';

/**
 * `assess(change)`: what a change to the groups would do to administrator rights (asked before
 * sending). `leaveAdmin()`: run after a change that took the signed-in admin's own rights, inside
 * the mutation and before its invalidations, so no admin screen refetches into a 403: the
 * session's user is fetched again and the console moves to the user's own profile.
 */
export function useAdminChange() {
  const { t } = useTranslation();
  const me = useAuthStore((s) => s.user);
  const groups = useQuery({ ...groupsQueryOptions, enabled: me?.is_admin === true });
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const assess = (change: (groups: readonly GroupInfo[]) => GroupInfo[]): AdminImpact =>
    me && groups.data ? adminImpact(me.username, groups.data, change(groups.data)) : undefined;

  const leaveAdmin = useCallback(async () => {
    const user = await queryClient.fetchQuery({ ...meQueryOptions, staleTime: 0 });
    if (user.is_admin) return;
    await navigate({ to: '/users/$username', params: { username: user.username }, replace: true, ignoreBlocker: true });
    pushToast({ id: 'self-demoted', kind: 'info', message: t('groups.toast.selfDemoted') });
  }, [queryClient, navigate, t]);

  return { assess, leaveAdmin };
}
