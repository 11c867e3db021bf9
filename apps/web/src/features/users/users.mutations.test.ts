import type { User } from '@palisade/contracts';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/features/auth/auth-store';
import { authKeys } from '@/features/auth/auth.queries';
import { storeSavedUser } from './users.mutations';
import { userKeys } from './users.queries';

const anna = {
  id: 1,
  username: 'anna',
  first_name: 'Anna',
  last_name: 'A',
  email: 'a@example.com',
  is_admin: true,
  groups: [],
} as unknown as User;

describe('storeSavedUser', () => {
  beforeEach(() => useAuthStore.setState({ user: anna }));

  it('caches the saved user under the new name and the session follows a self-rename', () => {
    const client = new QueryClient();
    storeSavedUser(client, 'anna', { ...anna, username: 'anna2' });
    expect(client.getQueryData(userKeys.detail('anna2'))).toMatchObject({ username: 'anna2' });
    expect(useAuthStore.getState().user?.username).toBe('anna2');
    expect(client.getQueryData(authKeys.me)).toMatchObject({ username: 'anna2' });
  });

  it("leaves the session alone when someone else's account changed", () => {
    const client = new QueryClient();
    storeSavedUser(client, 'bob', { ...anna, id: 2, username: 'bobby' });
    expect(useAuthStore.getState().user?.username).toBe('anna');
    expect(client.getQueryData(authKeys.me)).toBeUndefined();
  });
});
