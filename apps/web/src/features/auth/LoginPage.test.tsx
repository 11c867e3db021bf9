import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';

/** Boots the whole console (fresh module singletons) against a fake API, signed out. */
const requested: string[] = [];

async function renderSignedOut(onLogin: (body: unknown) => Response) {
  const posted: unknown[] = [];
  requested.length = 0;
  setFetchHandler(async (request) => {
    const { pathname } = new URL(request.url);
    requested.push(pathname);
    if (pathname === '/api/v1/me') return problemResponse(401, 'auth.unauthenticated');
    if (pathname === '/api/v1/settings_essentials') return jsonResponse(200, { ...DEFAULT_SETTINGS, instance_name: 'Acme VPN' });
    if (pathname === '/api/v1/auth' && request.method === 'POST') {
      const body = await request.json();
      posted.push(body);
      return onLogin(body);
    }
    return problemResponse(404, 'request.not_found');
  });
  vi.resetModules();
  const { App } = await import('@/app/App');
  render(<App />);
  expect(document.querySelector('.page-loader')).not.toBeNull();
  await screen.findByRole('heading', { name: 'Sign in' });
  return posted;
}

function fillAndSubmit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('login page', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('shows the page title from essential settings and the lockout message for auth.too_many_attempts', async () => {
    await renderSignedOut(() => problemResponse(429, 'auth.too_many_attempts'));
    expect(document.title).toBe('Sign in · Acme VPN');
    expect(window.location.pathname).toBe('/login');
    fillAndSubmit('bob', 'whatever');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Too many bad login attempts. Please try again in a few minutes.');
  });

  it('does not ask /me on the login page when no user is stored (no expected 401 in the console)', async () => {
    window.history.replaceState(null, '', '/login');
    await renderSignedOut(() => problemResponse(500, 'internal'));
    expect(requested).toContain('/api/v1/settings_essentials');
    expect(requested).not.toContain('/api/v1/me');
  });

  it('asks /me elsewhere (a session cookie may exist), then sends the visitor to log in with a way back', async () => {
    window.history.replaceState(null, '', '/groups');
    await renderSignedOut(() => problemResponse(500, 'internal'));
    expect(requested).toContain('/api/v1/me');
    expect(window.location.pathname).toBe('/login');
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/groups');
    expect(screen.queryByText('Your session has ended. Sign in again.')).toBeNull();
  });

  it('says the session ended when the login page is told so, and keeps where to return', async () => {
    window.history.replaceState(null, '', '/login?session=ended&redirect=%2Fsettings');
    await renderSignedOut(() => problemResponse(500, 'internal'));
    expect(screen.getByRole('status').textContent).toBe('Your session has ended. Sign in again.');
    const { useAuthStore } = await import('./auth-store');
    expect(useAuthStore.getState().authLocation).toBe('/settings');
  });

  it('maps auth.invalid_credentials and auth.user_disabled to their messages', async () => {
    let code = 'auth.invalid_credentials';
    await renderSignedOut(() => problemResponse(code === 'auth.user_disabled' ? 403 : 401, code));
    fillAndSubmit('bob', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password.');
    code = 'auth.user_disabled';
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This account is disabled. Contact your administrator.'));
  });

  it('validates with the contracts schema before sending, errors linked to the fields', async () => {
    const posted = await renderSignedOut(() => problemResponse(500, 'internal'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const username = screen.getByLabelText('Username or email');
    await waitFor(() => expect(username.getAttribute('aria-invalid')).toBe('true'));
    const errorId = username.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe('Field required');
    expect(screen.getAllByText('Field required')).toHaveLength(2);
    expect(posted).toHaveLength(0);
  });

  it('shows a server field error under its field', async () => {
    await renderSignedOut(() =>
      problemResponse(400, 'validation.failed', [
        { path: 'username', code: 'max_length', message: 'Maximum length exceeded', params: { max: 254 } },
      ]),
    );
    fillAndSubmit('bob', 'pw');
    expect(await screen.findByText('Maximum length exceeded (max. 254)')).toBeTruthy();
  });

  it('lists the required MFA methods on a 201 answer, with a way back', async () => {
    await renderSignedOut(() => jsonResponse(201, { mfa: { methods: ['totp', 'webauthn'], default_method: 'totp' } }));
    fillAndSubmit('bob', 'Secret-123');
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    expect(screen.getByText('Authenticator app code')).toBeTruthy();
    expect(screen.getByText('Security key')).toBeTruthy();
    expect(screen.getByText('Recovery code')).toBeTruthy();
    expect(screen.queryByText('Code sent by email')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Back to login/ }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });
});
