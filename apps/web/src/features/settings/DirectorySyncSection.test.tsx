import type { ExternalProvider } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { DirectorySyncSection } from './DirectorySyncSection';

const OKTA: ExternalProvider = {
  kind: 'Okta',
  name: 'Okta',
  client_id: 'okta-client',
  client_secret_set: true,
  base_url: 'https://acme.okta.com',
  display_name: 'Acme SSO',
  auto_create_account: false,
  username_handling: 'prune_email',
  enable_directory_sync: false,
  sync_target: 'all',
  sync_interval: 1800,
  user_behavior: 'keep',
  admin_behavior: 'keep',
  admin_email: '',
  google_service_account_key_set: false,
  google_service_account_email: '',
  okta_client_id: 'dir-client',
  okta_private_jwk_set: true,
  jumpcloud_api_key_set: false,
  group_match: [],
};

let calls: { method: string; pathname: string; body?: Record<string, unknown> }[] = [];
let testAnswer: () => Response;

function renderSection(provider: ExternalProvider) {
  setFetchHandler(async (request) => {
    const { pathname } = new URL(request.url);
    const body = request.method === 'PUT' ? ((await request.json()) as Record<string, unknown>) : undefined;
    calls.push({ method: request.method, pathname, ...(body ? { body } : {}) });
    if (pathname === '/api/v1/test_directory_sync') return testAnswer();
    return jsonResponse(200, { ...provider, ...body });
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({
    getParentRoute: () => root,
    path: '/settings',
    component: () => <DirectorySyncSection provider={provider} />,
  });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/settings'] }) });
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  calls = [];
  testAnswer = () => jsonResponse(200, { success: true, users: 5, groups: 1 });
});

describe('Settings › OpenID › Directory sync', () => {
  it('saves the sync fields over the saved provider; a key left empty keeps the stored one', async () => {
    renderSection(OKTA);
    const form = await screen.findByRole('form', { name: 'Directory sync' });
    expect(within(form).getByText('Saved')).toBeTruthy();
    fireEvent.click(within(form).getByLabelText('Enable directory sync'));
    fireEvent.change(within(form).getByLabelText('Sync interval (seconds)'), { target: { value: '600' } });
    fireEvent.change(within(form).getByLabelText('Users suspended or removed in the directory'), { target: { value: 'disable' } });
    fireEvent.change(within(form).getByLabelText(/^Groups to sync/), { target: { value: 'VPN, Engineering ,' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.pathname).toBe('/api/v1/openid/provider/Okta');
    expect(put?.body).toMatchObject({
      name: 'Okta',
      client_id: 'okta-client',
      display_name: 'Acme SSO',
      enable_directory_sync: true,
      sync_interval: 600,
      user_behavior: 'disable',
      group_match: ['VPN', 'Engineering'],
      okta_client_id: 'dir-client',
    });
    expect(put?.body).not.toHaveProperty('okta_private_jwk');
    expect(put?.body).not.toHaveProperty('client_secret');
    expect(put?.body).not.toHaveProperty('okta_private_jwk_set');
  });

  it('refuses an interval under 60 seconds before sending', async () => {
    renderSection(OKTA);
    const form = await screen.findByRole('form', { name: 'Directory sync' });
    fireEvent.change(within(form).getByLabelText('Sync interval (seconds)'), { target: { value: '10' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form).getByLabelText('Sync interval (seconds)').getAttribute('aria-invalid')).toBe('true'));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('uploads a Google key file once and sends its content', async () => {
    renderSection({ ...OKTA, kind: 'Google', name: 'Google', okta_private_jwk_set: false });
    const form = await screen.findByRole('form', { name: 'Directory sync' });
    fireEvent.change(within(form).getByLabelText(/^Administrator email/), { target: { value: 'it@acme.test' } });
    const key = '{"type":"service_account","client_email":"sync@p.iam.gserviceaccount.com"}';
    fireEvent.change(within(form).getByLabelText(/^Service account key file/), {
      target: { files: [new File([key], 'key.json', { type: 'application/json' })] },
    });
    await within(form).findByText('New key file, saved with the settings');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ admin_email: 'it@acme.test', google_service_account_key: key });
  });

  it('tests the saved settings and shows the counts, or the directory’s reason', async () => {
    renderSection({ ...OKTA, kind: 'JumpCloud', name: 'JumpCloud', okta_private_jwk_set: false, jumpcloud_api_key_set: true });
    const form = await screen.findByRole('form', { name: 'Directory sync' });
    expect(within(form).getByLabelText(/^JumpCloud API key/)).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Test directory sync' }));
    expect((await within(form).findByRole('status')).textContent).toBe('The directory answered: 5 users and 1 group to sync.');

    testAnswer = () =>
      jsonResponse(
        400,
        {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          code: 'directory_sync.failed',
          detail: 'Directory sync failed: HTTP 401: Unauthorized',
        },
        'application/problem+json',
      );
    fireEvent.click(within(form).getByRole('button', { name: 'Test directory sync' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('HTTP 401: Unauthorized');
  });

  it('is not offered for a Custom provider (it signs users in only)', async () => {
    renderSection({ ...OKTA, kind: 'Custom', name: 'Custom' });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Directory sync' })).toBeNull());
    expect(calls).toEqual([]);
  });
});
