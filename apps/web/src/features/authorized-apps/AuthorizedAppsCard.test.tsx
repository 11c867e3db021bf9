import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { AuthorizedAppsCard } from './AuthorizedAppsCard';

const GRAFANA = { client_id: 'graf1', name: 'Grafana', scopes: ['openid', 'profile'], authorized_at: '2026-11-20T10:00:00.000Z' };
const WIKI = { client_id: 'wiki1', name: 'Wiki', scopes: ['openid'], authorized_at: '2026-11-21T10:00:00.000Z' };

function renderCard(username: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthorizedAppsCard username={username} />
    </QueryClientProvider>,
  );
}

describe('AuthorizedAppsCard', () => {
  it('lists the authorized apps and revokes one after confirming, then shows the list again', async () => {
    const calls: string[] = [];
    let apps = [GRAFANA, WIKI];
    setFetchHandler(async (request) => {
      const { pathname } = new URL(request.url);
      calls.push(`${request.method} ${pathname}`);
      if (request.method === 'GET' && pathname === '/api/v1/oauth/apps/mia') return jsonResponse(200, apps);
      if (request.method === 'DELETE' && pathname === '/api/v1/user/mia/oauth_app/graf1') {
        apps = [WIKI];
        return new Response(null, { status: 204 });
      }
      return problemResponse(404, 'request.not_found');
    });
    renderCard('mia');
    const list = await screen.findByRole('list', { name: 'Authorized apps' });
    expect(within(list).getByText('Grafana')).toBeTruthy();
    expect(within(list).getByText(/openid, profile · authorized/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke Grafana' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke app access' });
    expect(dialog.textContent).toContain('Grafana will be signed out at once');
    expect(calls).not.toContain('DELETE /api/v1/user/mia/oauth_app/graf1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls).toContain('DELETE /api/v1/user/mia/oauth_app/graf1'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(screen.queryByText('Grafana')).toBeNull());
    expect(screen.getByText('Wiki')).toBeTruthy();
  });

  it('says so when no app is authorized', async () => {
    setFetchHandler(async () => jsonResponse(200, []));
    renderCard('mia');
    expect(await screen.findByText('No apps have been authorized to sign in with this account.')).toBeTruthy();
  });

  it('keeps the dialog open with the error when revoking fails', async () => {
    setFetchHandler(async (request) =>
      request.method === 'GET' ? jsonResponse(200, [GRAFANA]) : problemResponse(404, 'authorized_app.not_found'),
    );
    renderCard('mia');
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Grafana' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke app access' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('This app is not authorized for the user.')).toBeTruthy();
  });
});
