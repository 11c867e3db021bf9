import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { configure, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ADMIN_USER } from '@/test/fixtures';

const MIA = { ...ADMIN_USER, id: 2, username: 'mia', first_name: 'Mia', last_name: 'Park', is_admin: false, groups: [] };

/** Boots the console signed in as the admin on `path`, with the openid module on or off. */
async function renderProfile(path: string, openid: boolean) {
  const asked: string[] = [];
  setFetchHandler((request) => {
    const { pathname } = new URL(request.url);
    asked.push(pathname);
    if (pathname === '/api/v1/me') return jsonResponse(200, ADMIN_USER);
    if (pathname === '/api/v1/settings_essentials') return jsonResponse(200, { ...DEFAULT_SETTINGS, openid_enabled: openid });
    if (pathname === '/api/v1/info') return jsonResponse(200, { version: '1.0.0', network_present: false, smtp_enabled: false });
    if (pathname === '/api/v1/settings_enterprise')
      return jsonResponse(200, { admin_device_management: false, disable_all_traffic: false, disable_manual_config: false });
    if (pathname === '/api/v1/user/mia') return jsonResponse(200, MIA);
    if (pathname === '/api/v1/user/admin') return jsonResponse(200, ADMIN_USER);
    if (pathname.startsWith('/api/v1/oauth/apps/'))
      return jsonResponse(200, [{ client_id: 'g', name: 'Grafana', scopes: ['openid'], authorized_at: '2026-11-20T10:00:00Z' }]);
    if (pathname.startsWith('/api/v1/device')) return jsonResponse(200, []);
    return problemResponse(404, 'request.not_found');
  });
  window.history.replaceState(null, '', path);
  sessionStorage.setItem('auth-store', JSON.stringify({ state: { user: ADMIN_USER }, version: 0 }));
  vi.resetModules();
  const { App } = await import('@/app/App');
  render(<App />);
  return asked;
}

configure({ asyncUtilTimeout: 10_000 });

describe('profile: Authorized apps', { timeout: 30_000 }, () => {
  beforeEach(() => sessionStorage.clear());

  it('shows on the own profile and, for an admin, on another user’s profile', async () => {
    const asked = await renderProfile('/users/mia', true);
    expect(await screen.findByRole('heading', { name: 'Authorized apps' })).toBeTruthy();
    expect(await screen.findByText('Grafana')).toBeTruthy();
    expect(asked).toContain('/api/v1/oauth/apps/mia');
  });

  it('is absent while the OpenID module is off (and the API is not asked)', async () => {
    const asked = await renderProfile('/users/admin', false);
    expect(await screen.findByRole('heading', { name: 'Ada Admin' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Authorized apps' })).toBeNull();
    expect(asked.some((p) => p.startsWith('/api/v1/oauth/apps/'))).toBe(false);
  });
});
