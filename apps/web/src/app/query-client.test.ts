import { ApiError } from '@palisade/api-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/features/auth/auth-store';
import { ADMIN_USER } from '@/test/fixtures';
import { createQueryClient, onAnyError } from './query-client';

describe('onAnyError', () => {
  beforeEach(() => useAuthStore.setState({ user: ADMIN_USER }));

  it('ends the console session on a 401 of a console call', () => {
    onAnyError(createQueryClient(), new ApiError(401, { code: 'auth.unauthenticated' }));
    expect(useAuthStore.getState().user).toBeUndefined();
  });

  it('keeps the console session when the enrollment flow of the same browser says its own cookie expired', () => {
    onAnyError(createQueryClient(), new ApiError(401, { code: 'enrollment.token_invalid' }));
    expect(useAuthStore.getState().user?.username).toBe('admin');
  });
});
