import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { configure, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ADMIN_USER } from '@/test/fixtures';

const admin = ADMIN_USER;

interface Api {
  me: () => Response;
  settings?: Partial<typeof DEFAULT_SETTINGS> | (() => Partial<typeof DEFAULT_SETTINGS>);
  other?: (pathname: string) => Response | undefined;
}

/** Boots the whole console signed in as the admin (stored user, as after a login in this tab). */
async function renderSignedIn(path: string, api: Api) {
  setFetchHandler((request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/v1/me') return api.me();
    if (pathname === '/api/v1/settings_essentials') {
      const settings = typeof api.settings === 'function' ? api.settings() : api.settings;
      return jsonResponse(200, { ...DEFAULT_SETTINGS, instance_name: 'Acme VPN', ...settings });
    }
    if (pathname === '/api/v1/info') return jsonResponse(200, { version: '1.0.0', network_present: false, smtp_enabled: false });
    if (pathname === '/api/v1/settings_enterprise')
      return jsonResponse(200, { admin_device_management: false, disable_all_traffic: false, disable_manual_config: false });
    return api.other?.(pathname) ?? problemResponse(404, 'request.not_found');
  });
  window.history.replaceState(null, '', path);
  sessionStorage.setItem('auth-store', JSON.stringify({ state: { user: admin }, version: 0 }));
  vi.resetModules();
  const { App } = await import('@/app/App');
  render(<App />);
}

const EVERY_ENTRY = [
  'Overview',
  'Connected users',
  'Users',
  'Groups',
  'Locations',
  'Network devices',
  'Access control',
  'Webhooks',
  'Provisioners',
  'OpenID apps',
  'Enrollment',
  'Support',
  'Settings',
  'Activity log',
  'My profile',
];
const nav = () => screen.getByRole('navigation', { name: 'Main navigation' });

// Each test boots the whole console; on a busy machine the first boot alone can take seconds.
configure({ asyncUtilTimeout: 10_000 });

describe('console shell', { timeout: 30_000 }, () => {
  beforeEach(() => sessionStorage.clear());

  it('titles each page "<page> · <instance>" and marks its entry', async () => {
    await renderSignedIn('/groups', {
      me: () => jsonResponse(200, admin),
      other: (p) => (p === '/api/v1/group' ? jsonResponse(200, []) : undefined),
    });
    await waitFor(() => expect(document.title).toBe('Groups · Acme VPN'));
    expect(nav().querySelector('[aria-current="page"]')?.textContent).toBe('Groups');
  });

  it('with the WireGuard module off: no WireGuard entries, and its screens say the module is disabled', async () => {
    await renderSignedIn('/locations', { me: () => jsonResponse(200, admin), settings: { wireguard_enabled: false } });
    expect(await screen.findByRole('heading', { name: 'Module disabled' })).toBeTruthy();
    const labels = Array.from(nav().querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual([
      'Users',
      'Groups',
      'Webhooks',
      'Provisioners',
      'OpenID apps',
      'Enrollment',
      'Support',
      'Settings',
      'Activity log',
      'My profile',
    ]);
    await waitFor(() => expect(document.title).toBe('Module disabled · Acme VPN'));
  });

  it('with the webhooks module off: no Webhooks entry, and its screens say the module is disabled', async () => {
    await renderSignedIn('/webhooks/3', { me: () => jsonResponse(200, admin), settings: { webhooks_enabled: false } });
    expect(await screen.findByRole('heading', { name: 'Module disabled' })).toBeTruthy();
    const labels = Array.from(nav().querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual(EVERY_ENTRY.filter((label) => label !== 'Webhooks'));
  });

  it('with the OpenID module off: no OpenID apps entry, and its screen says the module is disabled', async () => {
    await renderSignedIn('/openid-apps', { me: () => jsonResponse(200, admin), settings: { openid_enabled: false } });
    expect(await screen.findByRole('heading', { name: 'Module disabled' })).toBeTruthy();
    const labels = Array.from(nav().querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual(EVERY_ENTRY.filter((label) => label !== 'OpenID apps'));
  });

  it('with the provisioning module off: no Provisioners entry, and its screen says the module is disabled', async () => {
    await renderSignedIn('/provisioners', { me: () => jsonResponse(200, admin), settings: { worker_enabled: false } });
    expect(await screen.findByRole('heading', { name: 'Module disabled' })).toBeTruthy();
    const labels = Array.from(nav().querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual(EVERY_ENTRY.filter((label) => label !== 'Provisioners'));
  });

  it('a module switched off elsewhere: its first module.disabled answer refreshes the switches and the screen goes', async () => {
    let essentialsCalls = 0;
    await renderSignedIn('/network-devices', {
      me: () => jsonResponse(200, admin),
      settings: () => ({ wireguard_enabled: ++essentialsCalls === 1 }),
      other: () => problemResponse(404, 'module.disabled'),
    });
    expect(await screen.findByRole('heading', { name: 'Module disabled' })).toBeTruthy();
    expect(essentialsCalls).toBeGreaterThan(1);
  });

  it('with the module on, lists its entries', async () => {
    await renderSignedIn('/groups', {
      me: () => jsonResponse(200, admin),
      other: (p) => (p === '/api/v1/group' ? jsonResponse(200, []) : undefined),
    });
    await waitFor(() => expect(Array.from(nav().querySelectorAll('a'), (a) => a.textContent)).toEqual(EVERY_ENTRY));
  });

  it('a session that ends under the user returns to login with a notice and the way back', async () => {
    let isSignedIn = true;
    await renderSignedIn('/groups', {
      me: () => (isSignedIn ? jsonResponse(200, admin) : problemResponse(401, 'auth.unauthenticated')),
      other: (p) =>
        p === '/api/v1/group' ? (isSignedIn ? jsonResponse(200, []) : problemResponse(401, 'auth.unauthenticated')) : undefined,
    });
    await waitFor(() => expect(document.title).toBe('Groups · Acme VPN'));
    isSignedIn = false;
    const { useAuthStore } = await import('@/features/auth/auth-store');
    const { fetchCurrentUser } = await import('@/features/auth/auth.queries');
    await expect(fetchCurrentUser()).rejects.toMatchObject({ status: 401 });
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(useAuthStore.getState().user).toBeUndefined();
    expect(await screen.findByText('Your session has ended. Sign in again.')).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/groups');
  });
});
