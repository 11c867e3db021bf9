import { unwrap } from '@palisade/api-client';
import type { CreateGroupBody, Group, UpdateGroupBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { authKeys } from '@/features/auth/auth.queries';
import { userKeys } from '@/features/users/users.queries';
import { api } from '@/lib/api';
import { groupKeys } from './groups.queries';

// Group changes alter users' `groups` and possibly the current user's admin flag.
const invalidate = [groupKeys.all, userKeys.all, authKeys.me] as const;

/**
 * `after` runs once the change is saved and before the queries above are invalidated: a change
 * that removed the signed-in admin's own rights leaves the admin screens there first.
 */
type After = { after?: () => Promise<void> };

export const useCreateGroup = () =>
  useMutation({
    mutationFn: async (body: CreateGroupBody): Promise<Group> => unwrap(api.POST('/api/v1/group', { body })),
    meta: { invalidate },
  });

export const useUpdateGroup = () =>
  useMutation({
    mutationFn: async ({ name, body, after }: { name: string; body: UpdateGroupBody } & After): Promise<Group> => {
      const saved = await unwrap(api.PUT('/api/v1/group/{name}', { params: { path: { name } }, body }));
      await after?.();
      return saved;
    },
    meta: { invalidate },
  });

export const useDeleteGroup = () =>
  useMutation({
    mutationFn: async ({ name, after }: { name: string } & After) => {
      await unwrap(api.DELETE('/api/v1/group/{name}', { params: { path: { name } } }));
      await after?.();
    },
    meta: { invalidate },
  });

export const useAddGroupMember = () =>
  useMutation({
    mutationFn: async ({ group, username }: { group: string; username: string }) => {
      await unwrap(api.POST('/api/v1/group/{group}', { params: { path: { group } }, body: { username } }));
    },
    meta: { invalidate },
  });

export const useRemoveGroupMember = () =>
  useMutation({
    mutationFn: async ({ group, username, after }: { group: string; username: string } & After) => {
      await unwrap(api.DELETE('/api/v1/group/{group}/user/{username}', { params: { path: { group, username } } }));
      await after?.();
    },
    meta: { invalidate },
  });
