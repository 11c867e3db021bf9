import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ADMIN_USER } from '@/test/fixtures';

/** Boots the whole console signed out against a fake API; `answer` may take any request first. */
async function boot(path: string, answer: (request: Request, pathname: string) => Promise<Response | undefined> | Response | undefined) {
  const posted: { pathname: string; body: unknown }[] = [];
  setFetchHandler(async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'POST') posted.push({ pathname, body: await request.clone().json() });
    const answered = await answer(request, pathname);
    if (answered) return answered;
    if (pathname === '/api/v1/me') return problemResponse(401, 'auth.unauthenticated');
    if (pathname === '/api/v1/settings_essentials') return jsonResponse(200, { ...DEFAULT_SETTINGS, instance_name: 'Acme VPN' });
    return problemResponse(404, 'request.not_found');
  });
  window.history.replaceState(null, '', path);
  vi.resetModules();
  const { App } = await import('@/app/App');
  render(<App />);
  return posted;
}

/** The public essentials with the provider's button (null: no provider configured). */
const withButton = (external_login_button: string | null) => (_r: Request, pathname: string) =>
  pathname === '/api/v1/settings_essentials'
    ? jsonResponse(200, { ...DEFAULT_SETTINGS, instance_name: 'Acme VPN', external_login_button })
    : undefined;

describe('external OpenID sign-in in the console', () => {
  beforeAll(async () => {
    await import('@/app/App');
  }, 60_000);
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('shows the provider button with its display name on the login page', async () => {
    await boot('/login', withButton('Sign in with Acme SSO'));
    expect(await screen.findByRole('button', { name: 'Sign in with Acme SSO' })).toBeTruthy();
  });

  it('uses the generic text when the display name is blank', async () => {
    await boot('/login', withButton('  '));
    expect(await screen.findByRole('button', { name: 'Sign in with OpenID' })).toBeTruthy();
  });

  it('shows no button when no provider is configured, and does not start a sign-in', async () => {
    let asked = false;
    await boot('/login', (request, pathname) => {
      if (pathname === '/api/v1/openid/auth_info') asked = true;
      return withButton(null)(request, pathname);
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    await screen.findByText('Acme VPN');
    expect(screen.queryByRole('button', { name: /OpenID/ })).toBeNull();
    expect(asked).toBe(false);
  });

  it('the callback posts code, state and iss once and lands like a password login', async () => {
    const posted = await boot('/auth/callback?code=abc&state=xyz&iss=http%3A%2F%2Fidp.test', (_r, pathname) =>
      pathname === '/api/v1/openid/callback' ? jsonResponse(200, { user: { ...ADMIN_USER, username: 'jane' } }) : undefined,
    );
    // Through /auth/redirect to the home page, which is the users list for an admin.
    await waitFor(() => expect(window.location.pathname).toBe('/users'));
    expect(posted.filter((p) => p.pathname === '/api/v1/openid/callback')).toEqual([
      { pathname: '/api/v1/openid/callback', body: { code: 'abc', state: 'xyz', iss: 'http://idp.test' } },
    ]);
  });

  it('the callback continues with the MFA step on 201', async () => {
    await boot('/auth/callback?code=abc&state=xyz', (_r, pathname) =>
      pathname === '/api/v1/openid/callback' ? jsonResponse(201, { mfa: { methods: ['totp'], default_method: 'totp' } }) : undefined,
    );
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    expect(screen.getByLabelText('Authenticator app code')).toBeTruthy();
  });

  it('shows the error view with the reason and a link back to login when the callback fails', async () => {
    await boot('/auth/callback?code=abc&state=forged', (_r, pathname) =>
      pathname === '/api/v1/openid/callback' ? problemResponse(400, 'external_login.failed') : undefined,
    );
    expect(await screen.findByRole('heading', { name: 'An error occurred during external OpenID login' })).toBeTruthy();
    expect(screen.getByText('The sign-in with the identity provider failed.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
  });

  it('shows the error view without calling the API when the provider sent an error', async () => {
    const posted = await boot('/auth/callback?error=access_denied&error_description=User%20cancelled', () => undefined);
    expect(await screen.findByRole('heading', { name: 'An error occurred during external OpenID login' })).toBeTruthy();
    expect(screen.getByText('User cancelled')).toBeTruthy();
    expect(posted).toEqual([]);
  });
});
