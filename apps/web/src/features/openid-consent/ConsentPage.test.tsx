import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';

interface Api {
  verify: () => Response;
  authorize?: (query: URLSearchParams) => Response;
}

/** Boots the whole console at `href` against a fake API; records the calls made. */
let assign = vi.fn();

async function renderAt(href: string, handlers: Api) {
  const calls: string[] = [];
  setFetchHandler(async (request) => {
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.pathname}${url.search}`);
    if (url.pathname === '/api/v1/me') return problemResponse(401, 'auth.unauthenticated');
    if (url.pathname === '/api/v1/settings_essentials') return jsonResponse(200, { ...DEFAULT_SETTINGS, instance_name: 'Acme VPN' });
    if (url.pathname === '/api/v1/openid/verify') return handlers.verify();
    if (url.pathname === '/api/v1/oauth/authorize' && handlers.authorize) return handlers.authorize(url.searchParams);
    return problemResponse(404, 'request.not_found');
  });
  window.history.replaceState(null, '', href);
  vi.resetModules();
  const { App } = await import('@/app/App');
  render(<App />);
  const { leaveConsole } = await import('./leave-console');
  assign = vi.fn();
  vi.spyOn(leaveConsole, 'to').mockImplementation(assign);
  return calls;
}

const request = (login_required = false) =>
  jsonResponse(200, { client: { name: 'Grafana', client_id: 'abc' }, scopes: ['openid', 'profile', 'groups'], login_required });

describe('OpenID consent page', () => {
  it('shows the app and the requested scopes with their descriptions; Accept posts allow=true and follows the answered URL', async () => {
    const calls = await renderAt('/consent?interaction=uid123', {
      verify: () => request(),
      authorize: (q) => jsonResponse(200, { url: `http://localhost/api/v1/oidc/auth/${q.get('interaction')}?allow=${q.get('allow')}` }),
    });
    expect(await screen.findByRole('heading', { name: 'Sign in to Grafana' })).toBeTruthy();
    const scopes = screen.getByRole('list', { name: 'What the app asks for' });
    expect(scopes.textContent).toContain('Your account identifier, to know it is you');
    expect(scopes.textContent).toContain('Your name and username');
    expect(scopes.textContent).toContain('The names of your groups');
    expect(scopes.textContent).not.toContain('Your email address');
    expect(calls).toContain('POST /api/v1/openid/verify');
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/api/v1/oidc/auth/uid123?allow=true'));
    expect(calls).toContain('POST /api/v1/oauth/authorize?interaction=uid123&allow=true');
  });

  it('Cancel posts allow=false and follows the answered URL (the app gets access_denied)', async () => {
    const calls = await renderAt('/consent?interaction=uid9', {
      verify: () => request(),
      authorize: () => jsonResponse(200, { url: 'http://localhost/api/v1/oidc/auth/uid9' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/api/v1/oidc/auth/uid9'));
    expect(calls).toContain('POST /api/v1/oauth/authorize?interaction=uid9&allow=false');
  });

  it('an expired or foreign request: a clear page with a link back, no Accept', async () => {
    await renderAt('/consent?interaction=gone', { verify: () => problemResponse(404, 'openid.interaction_not_found') });
    expect(await screen.findByRole('heading', { name: 'This sign-in request has expired' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the console' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
  });

  it('without an interaction in the address: the same page, and no API call', async () => {
    const calls = await renderAt('/consent', { verify: () => request() });
    expect(await screen.findByRole('heading', { name: 'This sign-in request has expired' })).toBeTruthy();
    expect(calls).not.toContain('POST /api/v1/openid/verify');
  });

  it('not signed in: goes to the login page (whose sign-in answer brings the browser back here)', async () => {
    await renderAt('/consent?interaction=uid1', { verify: () => request(true) });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.pathname).toBe('/login');
  });
});
