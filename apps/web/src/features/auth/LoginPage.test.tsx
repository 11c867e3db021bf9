import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ADMIN_USER } from '@/test/fixtures';

/** Boots the whole console (fresh module singletons) against a fake API, signed out. */
const requested: string[] = [];

async function renderSignedOut(onLogin: (body: unknown) => Response, onOther?: (request: Request) => Promise<Response | undefined>) {
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
    return (await onOther?.(request)) ?? problemResponse(404, 'request.not_found');
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
  // The first import of the console transforms its whole module graph: seconds, more on a busy
  // machine, and it fell inside whichever test ran first (then past that test's 5 s). Done once
  // here, each test's fresh import (after vi.resetModules) only evaluates the transformed modules.
  beforeAll(async () => {
    await import('@/app/App');
  }, 60_000);
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

  it('asks for the default method first on a 201 answer, offers the others and a recovery code, with a way back', async () => {
    await renderSignedOut(() => jsonResponse(201, { mfa: { methods: ['totp'], default_method: 'totp' } }));
    fillAndSubmit('bob', 'Secret-123');
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    expect(screen.getByLabelText('Authenticator app code')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Recovery code' }));
    expect(screen.getByLabelText('Recovery code')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Authenticator app code' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Back to login/ }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });

  it('signs in with a pasted authenticator code (sent on the sixth digit), after "Code is invalid" and the lockout message', async () => {
    const verified: unknown[] = [];
    let answer = () => problemResponse(400, 'auth.invalid_code');
    await renderSignedOut(
      () => jsonResponse(201, { mfa: { methods: ['totp'], default_method: 'totp' } }),
      async (request) => {
        if (new URL(request.url).pathname !== '/api/v1/auth/totp/verify') return undefined;
        verified.push(await request.json());
        return answer();
      },
    );
    fillAndSubmit('bob', 'Secret-123');
    const input = await screen.findByLabelText('Authenticator app code');
    fireEvent.paste(input, { clipboardData: { getData: () => '111 111' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Code is invalid');
    answer = () => problemResponse(429, 'auth.too_many_attempts');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Too many bad login attempts. Please try again in a few minutes.'),
    );
    answer = () => jsonResponse(200, { user: { ...ADMIN_USER, username: 'bob', is_admin: false } });
    fireEvent.paste(input, { clipboardData: { getData: () => '123456' } });
    await waitFor(() => expect(window.location.pathname).not.toBe('/login'));
    expect(verified).toEqual([{ code: '111111' }, { code: '111111' }, { code: '123456' }]);
    const { useAuthStore } = await import('./auth-store');
    expect(useAuthStore.getState().user?.username).toBe('bob');
  });

  it('signs in with a recovery code', async () => {
    const recovered: unknown[] = [];
    await renderSignedOut(
      () => jsonResponse(201, { mfa: { methods: ['totp'], default_method: 'totp' } }),
      async (request) => {
        if (new URL(request.url).pathname !== '/api/v1/auth/recovery') return undefined;
        recovered.push(await request.json());
        return jsonResponse(200, { user: { ...ADMIN_USER, username: 'bob', is_admin: false } });
      },
    );
    fillAndSubmit('bob', 'Secret-123');
    fireEvent.click(await screen.findByRole('button', { name: 'Recovery code' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcde-12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(recovered).toEqual([{ code: 'abcde-12345' }]));
    const { useAuthStore } = await import('./auth-store');
    await waitFor(() => expect(useAuthStore.getState().user?.username).toBe('bob'));
  });

  it('offers the security key first when it is the default; a browser that cannot read the key says so', async () => {
    await renderSignedOut(
      () => jsonResponse(201, { mfa: { methods: ['totp', 'webauthn'], default_method: 'webauthn' } }),
      async (request) =>
        new URL(request.url).pathname === '/api/v1/auth/webauthn/start'
          ? jsonResponse(200, { challenge: 'abc', allowCredentials: [] })
          : undefined,
    );
    fillAndSubmit('bob', 'Secret-123');
    fireEvent.click(await screen.findByRole('button', { name: 'Use security key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to read key. Please try again.');
    fireEvent.click(screen.getByRole('button', { name: 'Authenticator app code' }));
    expect(screen.getByLabelText('Authenticator app code')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('email codes: a code is sent when the method opens, resending waits 30 seconds, the typed code signs in', async () => {
    const calls: string[] = [];
    await renderSignedOut(
      () => jsonResponse(201, { mfa: { methods: ['email'], default_method: 'email' } }),
      async (request) => {
        const path = new URL(request.url).pathname;
        if (path === '/api/v1/auth/email' && request.method === 'GET') {
          calls.push('send');
          return new Response(null, { status: 204 });
        }
        if (path === '/api/v1/auth/email/verify') {
          calls.push(`verify ${JSON.stringify(await request.json())}`);
          return jsonResponse(200, { user: { ...ADMIN_USER, username: 'bob', is_admin: false } });
        }
        return undefined;
      },
    );
    fillAndSubmit('bob', 'Secret-123');
    expect(
      await screen.findByText('We sent a 6-digit code to your email address. Enter it below; it is valid for 10 minutes.'),
    ).toBeTruthy();
    await waitFor(() => expect(calls).toEqual(['send']));
    const resend = screen.getByRole('button', { name: /Send a new code in \d+ seconds/ });
    expect((resend as HTMLButtonElement).disabled).toBe(true);
    fireEvent.paste(screen.getByLabelText('Code sent by email'), { clipboardData: { getData: () => '246 810' } });
    await waitFor(() => expect(calls).toEqual(['send', 'verify {"code":"246810"}']));
  });
});
