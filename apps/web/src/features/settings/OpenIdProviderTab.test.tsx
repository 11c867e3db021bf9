import type { ExternalProvider } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToastStore } from '@/components/toast-store';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { OpenIdProviderTab } from './OpenIdProviderTab';

const REDIRECT = 'https://vpn.example.com/auth/callback';
let calls: { method: string; pathname: string; body?: unknown }[] = [];

const SAVED: ExternalProvider = {
  kind: 'Okta',
  name: 'Okta',
  client_id: 'okta-client',
  client_secret_set: true,
  base_url: 'https://acme.okta.com',
  display_name: 'Acme SSO',
  auto_create_account: false,
  username_handling: 'prune_email',
  enable_directory_sync: true,
  sync_target: 'users',
  sync_interval: 600,
  user_behavior: 'disable',
  admin_behavior: 'keep',
  admin_email: 'it@acme.test',
  google_service_account_key_set: false,
  google_service_account_email: '',
  okta_client_id: 'dir-client',
  okta_private_jwk_set: true,
  jumpcloud_api_key_set: false,
  group_match: ['vpn'],
};

function renderTab(provider: ExternalProvider | null) {
  let current = provider;
  setFetchHandler(async (request) => {
    const { pathname } = new URL(request.url);
    const body = request.method === 'GET' || request.method === 'DELETE' ? undefined : await request.json();
    calls.push({ method: request.method, pathname, ...(body === undefined ? {} : { body }) });
    if (request.method === 'GET') return jsonResponse(200, { provider: current, redirect_url: REDIRECT });
    if (request.method === 'DELETE') {
      current = null;
      return new Response(null, { status: 204 });
    }
    if (request.method === 'POST' && current) return problemResponse(409, 'external_provider.exists');
    const saved = { ...SAVED, ...(body as object), client_secret_set: true } as ExternalProvider;
    current = saved;
    return jsonResponse(request.method === 'POST' ? 201 : 200, saved);
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({ getParentRoute: () => root, path: '/settings', component: OpenIdProviderTab });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/settings'] }) });
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  calls = [];
  useToastStore.setState({ toasts: [] });
});

describe('Settings › OpenID', () => {
  it('creates a provider named after its kind; Google prefills its issuer; shows the redirect URL to register', async () => {
    renderTab(null);
    const form = await screen.findByRole('form', { name: 'OpenID' });
    expect((within(form).getByLabelText('Redirect URL') as HTMLInputElement).value).toBe(REDIRECT);
    expect(within(form).queryByRole('button', { name: 'Delete provider' })).toBeNull();
    fireEvent.change(within(form).getByLabelText('Provider'), { target: { value: 'Google' } });
    expect((within(form).getByLabelText('Base URL') as HTMLInputElement).value).toBe('https://accounts.google.com');
    fireEvent.change(within(form).getByLabelText('Client ID'), { target: { value: 'g-client' } });
    fireEvent.change(within(form).getByLabelText(/^Client secret/), { target: { value: 'g-secret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      pathname: '/api/v1/openid/provider',
      body: {
        name: 'Google',
        kind: 'Google',
        client_id: 'g-client',
        client_secret: 'g-secret',
        base_url: 'https://accounts.google.com',
        auto_create_account: true,
        username_handling: 'remove',
      },
    });
  });

  it('saves changes with PUT, keeping the stored secret and the directory-sync settings as they are', async () => {
    renderTab(SAVED);
    const form = await screen.findByRole('form', { name: 'OpenID' });
    expect(within(form).getByText('Stored')).toBeTruthy();
    expect((within(form).getByLabelText(/^Client secret/) as HTMLInputElement).value).toBe('');
    fireEvent.change(within(form).getByLabelText(/^Button text/), { target: { value: 'Okta' } });
    fireEvent.change(within(form).getByLabelText('Username handling'), { target: { value: 'replace' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.pathname).toBe('/api/v1/openid/provider/Okta');
    expect(put?.body).not.toHaveProperty('client_secret');
    expect(put?.body).not.toHaveProperty('okta_private_jwk');
    expect(put?.body).toMatchObject({
      display_name: 'Okta',
      username_handling: 'replace',
      auto_create_account: false,
      enable_directory_sync: true,
      sync_target: 'users',
      sync_interval: 600,
      user_behavior: 'disable',
      okta_client_id: 'dir-client',
      group_match: ['vpn'],
    });
  });

  it('refuses a base URL that is not http(s) before sending', async () => {
    renderTab(SAVED);
    const form = await screen.findByRole('form', { name: 'OpenID' });
    fireEvent.change(within(form).getByLabelText('Base URL'), { target: { value: 'ftp://acme' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form).getByLabelText('Base URL').getAttribute('aria-invalid')).toBe('true'));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('deletes the provider only after confirming', async () => {
    renderTab(SAVED);
    const form = await screen.findByRole('form', { name: 'OpenID' });
    fireEvent.click(within(form).getByRole('button', { name: 'Delete provider' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Users can no longer sign in with Okta. Their Palisade accounts stay.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', pathname: '/api/v1/openid/provider/Okta' }]),
    );
    expect(
      await screen.findByText('No provider yet. Users sign in with the company identity provider once one is saved here.'),
    ).toBeTruthy();
  });
});
