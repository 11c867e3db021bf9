import type { User } from '@palisade/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { authStorePartialize, useAuthStore } from '@/features/auth/auth-store';
import { appStorePartialize, useAppStore } from './app-store';
import { isUpdateToastDue, updatesStorePartialize, useUpdatesStore } from './updates-store';

const user: User = {
  id: 7,
  username: 'alice',
  first_name: 'Alice',
  last_name: 'Doe',
  email: 'alice@example.com',
  is_active: true,
  is_admin: false,
  groups: [],
  mfa_enabled: false,
  enrolled: true,
  has_password: true,
  created_at: '2026-11-21T10:00:00Z',
};

const stored = (name: string) =>
  JSON.parse(sessionStorage.getItem(name) ?? 'null') as { state: Record<string, unknown>; version: number } | null;

describe('app-store (spec §3)', () => {
  beforeEach(() => useAppStore.setState({ language: 'en', settings: undefined, appInfo: undefined }));

  it('persists only the language, in session storage, version 1', () => {
    useAppStore.getState().setSettings({
      instance_name: 'Acme',
      main_logo_url: '',
      nav_logo_url: '',
      wireguard_enabled: true,
      webhooks_enabled: true,
      worker_enabled: true,
      openid_enabled: true,
      default_network_view: 'grid',
    });
    useAppStore.getState().setAppInfo({ version: '1.0.0', network_present: false, smtp_enabled: false });
    useAppStore.getState().setLanguage('pl');
    expect(stored('app-store')).toEqual({ state: { language: 'pl' }, version: 1 });
    expect(localStorage.getItem('app-store')).toBeNull();
  });

  it('partialize keeps language and drops settings, appInfo and enterprise_settings', () => {
    const state = {
      ...useAppStore.getState(),
      enterprise_settings: { admin_device_management: true, disable_all_traffic: false, disable_manual_config: false },
    };
    expect(appStorePartialize(state)).toEqual({ language: 'en' });
  });

  it('rehydrates a persisted language and ignores an unknown one', async () => {
    sessionStorage.setItem('app-store', JSON.stringify({ state: { language: 'ko' }, version: 1 }));
    await useAppStore.persist.rehydrate();
    expect(useAppStore.getState().language).toBe('ko');
    sessionStorage.setItem('app-store', JSON.stringify({ state: { language: 'xx' }, version: 1 }));
    useAppStore.setState({ language: 'en' });
    await useAppStore.persist.rehydrate();
    expect(useAppStore.getState().language).toBe('en');
  });
});

describe('auth-store (spec §3)', () => {
  beforeEach(() => useAuthStore.setState({ user: undefined, openIdParams: undefined, authLocation: undefined }));

  it('persists user and authLocation only, in session storage', () => {
    useAuthStore.getState().setUser(user);
    useAuthStore.getState().setOpenIdParams({ client_id: 'app' });
    useAuthStore.getState().setAuthLocation('/users/alice');
    expect(stored('auth-store')?.state).toEqual({ user, authLocation: '/users/alice' });
    expect(localStorage.getItem('auth-store')).toBeNull();
    expect(Object.keys(authStorePartialize(useAuthStore.getState())).sort()).toEqual(['authLocation', 'user']);
  });

  it('reset() clears user and openIdParams', () => {
    useAuthStore.getState().setUser(user);
    useAuthStore.getState().setOpenIdParams({ client_id: 'app' });
    useAuthStore.getState().reset();
    expect(useAuthStore.getState().user).toBeUndefined();
    expect(useAuthStore.getState().openIdParams).toBeUndefined();
    expect(stored('auth-store')?.state.user).toBeUndefined();
  });

  it('announces a login on the login subject', () => {
    const seen: string[] = [];
    const unsubscribe = useAuthStore.getState().loginSubject.subscribe((u) => seen.push(u.username));
    useAuthStore.getState().loginSubject.next(user);
    unsubscribe();
    useAuthStore.getState().loginSubject.next(user);
    expect(seen).toEqual(['alice']);
  });
});

describe('updates-store (spec §3, §4)', () => {
  beforeEach(() => useUpdatesStore.setState({ update: undefined, dismissal: undefined }));

  it('persists only the dismissal, version 1', () => {
    useUpdatesStore.getState().setUpdate({ version: '2.0.0', critical: true, release_notes_url: 'https://example.com' });
    useUpdatesStore.getState().dismiss(new Date('2026-11-21T10:00:00Z'));
    expect(stored('updates-store')).toEqual({
      state: { dismissal: { dismissedAt: '2026-11-21T10:00:00.000Z', version: '2.0.0' } },
      version: 1,
    });
    expect(Object.keys(updatesStorePartialize(useUpdatesStore.getState()))).toEqual(['dismissal']);
  });

  it('shows the toast only for a version not dismissed', () => {
    const update = { version: '2.0.0', critical: false, release_notes_url: 'https://example.com' };
    expect(isUpdateToastDue({ update, dismissal: undefined })).toBe(true);
    expect(isUpdateToastDue({ update, dismissal: { version: '2.0.0', dismissedAt: 'x' } })).toBe(false);
    expect(isUpdateToastDue({ update: { ...update, version: '2.1.0' }, dismissal: { version: '2.0.0', dismissedAt: 'x' } })).toBe(true);
    expect(isUpdateToastDue({ update: undefined, dismissal: undefined })).toBe(false);
  });
});
