import { unwrap } from '@palisade/api-client';
import type { CreateUserBody, GroupsAssignBody, UpdateUserBody, User } from '@palisade/contracts';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuthStore } from '@/features/auth/auth-store';
import { authKeys } from '@/features/auth/auth.queries';
import { groupKeys } from '@/features/groups/groups.queries';
import { api } from '@/lib/api';
import { userKeys } from './users.queries';

const path = (username: string) => ({ params: { path: { username } } });

export const useCreateUser = () =>
  useMutation({
    mutationFn: async (body: CreateUserBody): Promise<User> => unwrap(api.POST('/api/v1/user', { body })),
    meta: { invalidate: [userKeys.lists(), groupKeys.all] },
  });

export const useUpdateUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ username, body }: { username: string; body: UpdateUserBody }): Promise<User> =>
      unwrap(api.PUT('/api/v1/user/{username}', { ...path(username), body })),
    onSuccess: (saved, { username }) => storeSavedUser(queryClient, username, saved),
    // Not the user's own detail: after a rename it would refetch a name that no longer exists
    // (404) before the page could follow the new one; `storeSavedUser` writes it instead.
    meta: { invalidate: [userKeys.lists(), groupKeys.all, authKeys.me] },
  });
};

/**
 * The saved user is the fresh copy: cache it under its (possibly new) name, and when the signed-in
 * user renamed or changed themselves, the session's user follows at once (route guards read it).
 */
export function storeSavedUser(queryClient: QueryClient, previousUsername: string, saved: User): void {
  queryClient.setQueryData(userKeys.detail(saved.username), saved);
  const auth = useAuthStore.getState();
  if (auth.user?.username === previousUsername) {
    auth.setUser(saved);
    queryClient.setQueryData(authKeys.me, saved);
  }
}

export const useDeleteUser = () =>
  useMutation({
    mutationFn: async (username: string) => {
      await unwrap(api.DELETE('/api/v1/user/{username}', path(username)));
    },
    meta: { invalidate: [userKeys.lists(), groupKeys.all] },
  });

/** Admin sets another user's password. */
export const useSetPassword = () =>
  useMutation({
    mutationFn: async ({ username, new_password }: { username: string; new_password: string }) => {
      await unwrap(api.PUT('/api/v1/user/{username}/password', { ...path(username), body: { new_password } }));
    },
  });

/** A user changes their own password. */
export const useChangeOwnPassword = () =>
  useMutation({
    mutationFn: async (body: { old_password: string; new_password: string }) => {
      await unwrap(api.PUT('/api/v1/user/change_password', { body }));
    },
  });

export const useAssignGroups = () =>
  useMutation({
    mutationFn: async (body: GroupsAssignBody) => {
      await unwrap(api.POST('/api/v1/groups-assign', { body }));
    },
    meta: { invalidate: [userKeys.all, groupKeys.all] },
  });

/** The body PUT /user/{username} expects, built from a loaded user plus changes. */
export function toUpdateBody(user: User, changes: Partial<UpdateUserBody> = {}): UpdateUserBody {
  return {
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    ...(user.phone ? { phone: user.phone } : {}),
    ...changes,
  };
}
