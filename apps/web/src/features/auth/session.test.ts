import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToastStore } from '@/components/toast-store';
import { infoQueryOptions } from '@/features/app/app.queries';
import { useAppStore } from '@/features/app/app-store';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ADMIN_USER } from '@/test/fixtures';
import { meQueryOptions } from './auth.queries';
import { useAuthStore } from './auth-store';

const user = ADMIN_USER;

describe('current-user query (spec §4)', () => {
  beforeEach(() => {
    useAuthStore.setState({ user: undefined, openIdParams: undefined });
    useToastStore.setState({ toasts: [] });
  });

  it('is configured: no retry, refetch on mount, not on window focus', () => {
    expect(meQueryOptions.retry).toBe(false);
    expect(meQueryOptions.refetchOnMount).toBe(true);
    expect(meQueryOptions.refetchOnWindowFocus).toBe(false);
  });

  it('stores the user on success, with null values dropped', async () => {
    setFetchHandler(() => jsonResponse(200, { ...user, phone: null }));
    const data = await new QueryClient().fetchQuery(meQueryOptions);
    expect(data).not.toHaveProperty('phone');
    expect(useAuthStore.getState().user?.username).toBe('admin');
  });

  it('resets the stored user (logs out) when it fails', async () => {
    useAuthStore.setState({ user, openIdParams: { client_id: 'x' } });
    setFetchHandler(() => problemResponse(401, 'auth.unauthenticated'));
    await expect(new QueryClient().fetchQuery(meQueryOptions)).rejects.toMatchObject({ status: 401 });
    expect(useAuthStore.getState().user).toBeUndefined();
    expect(useAuthStore.getState().openIdParams).toBeUndefined();
  });

  it('app info: stored on success; an error toast with the spec text on failure', async () => {
    setFetchHandler(() => jsonResponse(200, { version: '1.2.3', network_present: false, smtp_enabled: false }));
    await new QueryClient().fetchQuery(infoQueryOptions);
    expect(useAppStore.getState().appInfo?.version).toBe('1.2.3');

    setFetchHandler(() => problemResponse(500, 'internal'));
    await expect(new QueryClient().fetchQuery(infoQueryOptions)).rejects.toBeTruthy();
    expect(useToastStore.getState().toasts).toEqual([
      { id: 'app-info-error', kind: 'error', message: 'Failed to get application version.' },
    ]);
  });
});
