import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/features/auth/auth-store';
import { ADMIN_USER } from '@/test/fixtures';
import { shouldAskForCurrentUser } from './App';

describe('shouldAskForCurrentUser', () => {
  beforeEach(() => useAuthStore.setState({ user: undefined }));

  it('does not ask on the signed-out pages (login, enrollment link, password reset link) when no user is stored', () => {
    for (const path of ['/login', '/enrollment', '/password-reset']) expect(shouldAskForCurrentUser(path), path).toBe(false);
  });

  it('asks everywhere else, and wherever a user is stored', () => {
    expect(shouldAskForCurrentUser('/users')).toBe(true);
    expect(shouldAskForCurrentUser('/enrollment-settings')).toBe(true);
    useAuthStore.setState({ user: ADMIN_USER });
    expect(shouldAskForCurrentUser('/enrollment')).toBe(true);
  });
});
