import { unwrap } from '@palisade/api-client';
import type { User } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { useAuthStore } from './auth-store';

export const authKeys = {
  me: ['me'] as const,
};

/** Spec §4: on success the user is saved; on failure while a user is stored, the store is reset (the session ended). */
export async function fetchCurrentUser(): Promise<User> {
  try {
    const user: User = await unwrap(api.GET('/api/v1/me'));
    useAuthStore.getState().setUser(user);
    return user;
  } catch (error) {
    if (useAuthStore.getState().user) useAuthStore.getState().endSession();
    throw error;
  }
}

export const meQueryOptions = queryOptions({
  queryKey: authKeys.me,
  queryFn: fetchCurrentUser,
  retry: false,
  refetchOnMount: true,
  refetchOnWindowFocus: false,
});
