import { DEFAULT_SETTINGS, type Settings } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToastStore } from '@/components/toast-store';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { LdapSettingsTab } from './LdapSettingsTab';

let patches: Record<string, unknown>[] = [];
let tests = 0;

const CONFIGURED: Settings = {
  ...DEFAULT_SETTINGS,
  ldap_enabled: true,
  ldap_url: 'ldap://ldap.example.com',
  ldap_bind_username: 'cn=admin,dc=example,dc=com',
  ldap_bind_password_set: true,
  ldap_user_search_base: 'ou=people,dc=example,dc=com',
};

function renderTab(settings: Settings, testAnswer: () => Response = () => jsonResponse(200, { success: true })) {
  setFetchHandler(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/v1/activity_log') return jsonResponse(200, { items: [], page: 1, per_page: 1, total: 0 });
    if (request.method === 'PATCH') {
      const body = (await request.json()) as Record<string, unknown>;
      patches.push(body);
      const { ldap_bind_password, ...rest } = body;
      return jsonResponse(200, {
        ...settings,
        ...rest,
        ldap_bind_password_set: ldap_bind_password === undefined ? settings.ldap_bind_password_set : ldap_bind_password !== '',
      });
    }
    if (url.pathname === '/api/v1/ldap/test') {
      tests += 1;
      return testAnswer();
    }
    return jsonResponse(200, settings);
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({ getParentRoute: () => root, path: '/settings', component: LdapSettingsTab });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/settings'] }) });
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  patches = [];
  tests = 0;
  useToastStore.setState({ toasts: [] });
});

describe('Settings › LDAP', () => {
  it('saves every field with the interval as a number, the bind password only when typed', async () => {
    renderTab(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'LDAP' });
    expect(within(form).queryByText('Password set')).toBeNull();
    fireEvent.click(within(form).getByLabelText('Enable LDAP sign-in'));
    fireEvent.change(within(form).getByLabelText('Server URL'), { target: { value: 'ldaps://ldap.example.com' } });
    fireEvent.change(within(form).getByLabelText('Bind password (optional)'), { target: { value: 'bind-Secret-1' } });
    fireEvent.change(within(form).getByLabelText('User search base'), { target: { value: 'ou=people,dc=example,dc=com' } });
    fireEvent.change(within(form).getByLabelText('Sync interval'), { target: { value: '900' } });
    fireEvent.change(within(form).getByLabelText('Authoritative source'), { target: { value: 'palisade' } });
    const groups = within(form).getByLabelText('Sync groups (optional)');
    fireEvent.change(groups, { target: { value: 'vpn' } });
    fireEvent.keyDown(groups, { key: 'Enter' });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({
      ldap_enabled: true,
      ldap_url: 'ldaps://ldap.example.com',
      ldap_bind_password: 'bind-Secret-1',
      ldap_user_search_base: 'ou=people,dc=example,dc=com',
      ldap_sync_interval: 900,
      ldap_authoritative_source: 'palisade',
      ldap_sync_groups: ['vpn'],
      ldap_username_attr: 'uid',
      ldap_tls_verify_cert: true,
    });
  });

  it('keeps the stored bind password unless it is replaced or removed', async () => {
    renderTab(CONFIGURED);
    const form = await screen.findByRole('form', { name: 'LDAP' });
    expect(within(form).getByText('Password set')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Bind username (optional)'), { target: { value: 'cn=palisade,dc=example,dc=com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).not.toHaveProperty('ldap_bind_password');
    // The saved settings re-render the form.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Remove password' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toMatchObject({ ldap_bind_password: '' });
  });

  it('checks the fields before sending: an http URL and a short interval are refused in place', async () => {
    renderTab(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'LDAP' });
    fireEvent.change(within(form).getByLabelText('Server URL'), { target: { value: 'http://ldap.example.com' } });
    fireEvent.change(within(form).getByLabelText('Sync interval'), { target: { value: '30' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter an ldap:// or ldaps:// address, e.g. ldap://ldap.example.com:389')).toBeTruthy();
    expect(patches).toEqual([]);
  });

  it('tests the saved connection and shows success or the rejected reason', async () => {
    let answer = () => jsonResponse(200, { success: true });
    renderTab(CONFIGURED, () => answer());
    const button = await screen.findByRole('button', { name: 'Test connection' });
    fireEvent.click(button);
    expect(await screen.findByText('Connection successful.')).toBeTruthy();
    answer = () =>
      jsonResponse(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        code: 'ldap.connection_rejected',
        detail: 'LDAP connection rejected: invalid credentials (wrong bind username or password)',
      });
    fireEvent.click(button);
    expect(await screen.findByText('LDAP connection rejected: invalid credentials (wrong bind username or password)')).toBeTruthy();
    expect(tests).toBe(2);
  });

  it('asks to save first before testing unsaved changes', async () => {
    renderTab(CONFIGURED);
    const form = await screen.findByRole('form', { name: 'LDAP' });
    fireEvent.change(within(form).getByLabelText('Server URL'), { target: { value: 'ldap://other.example.com' } });
    expect(await screen.findByText('Save your changes first: the test uses the saved settings.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
