import { DEFAULT_SETTINGS, type Settings } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { GlobalSettingsTab } from './GlobalSettingsTab';

let puts: unknown[] = [];

function renderTab(settings: Settings) {
  setFetchHandler(async (request) => {
    if (request.method === 'PUT') {
      const body = (await request.json()) as Settings;
      puts.push(body);
      return jsonResponse(200, { ...settings, ...body });
    }
    return jsonResponse(200, settings);
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({ getParentRoute: () => root, path: '/settings', component: GlobalSettingsTab });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/settings'] }) });
  render(<RouterProvider router={router} />);
}

const addCidr = (form: HTMLElement, value: string) => {
  const input = within(form).getByLabelText(/Egress allow-list/);
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter' });
};

beforeEach(() => {
  puts = [];
});

describe('Settings › Global: activity log retention and the egress allow-list', () => {
  it('refuses a retention that is not a whole number and an allow-list entry that is not a CIDR, sending nothing', async () => {
    renderTab(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'Global' });
    fireEvent.change(within(form).getByLabelText('Activity log retention (days)'), { target: { value: '1.5' } });
    addCidr(form, '10.0.0.300/8');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter a valid number')).toBeTruthy();
    expect(within(form).getByText('Enter a valid address with netmask, e.g. 10.0.0.0/8')).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it('saves 0 (keep forever) and the allow-list as a number and a list of CIDRs', async () => {
    renderTab({ ...DEFAULT_SETTINGS, egress_allow_cidrs: ['192.168.0.0/16'] });
    const form = await screen.findByRole('form', { name: 'Global' });
    expect(within(form).getByText('192.168.0.0/16')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Activity log retention (days)'), { target: { value: '0' } });
    addCidr(form, '127.0.0.0/8');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ activity_log_retention_days: 0, egress_allow_cidrs: ['192.168.0.0/16', '127.0.0.0/8'] });
  });

  it('lets the webhooks and YubiKey provisioning modules be switched (both have screens now)', async () => {
    renderTab(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'Global' });
    expect((within(form).getByRole('checkbox', { name: 'Webhooks' }) as HTMLInputElement).disabled).toBe(false);
    const worker = within(form).getByRole('checkbox', { name: 'YubiKey provisioning' }) as HTMLInputElement;
    expect(worker.disabled).toBe(false);
    const hint = document.getElementById(worker.getAttribute('aria-describedby') ?? '')?.textContent ?? '';
    expect(hint).toContain('When off, the Provisioners screen disappears');
    fireEvent.click(worker);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ worker_enabled: false });
  });

  it('the OpenID provider switch works: it says what turning it off does, and saving sends openid_enabled', async () => {
    renderTab({ ...DEFAULT_SETTINGS, openid_enabled: true });
    const form = await screen.findByRole('form', { name: 'Global' });
    const openid = within(form).getByRole('checkbox', { name: 'OpenID Connect provider' }) as HTMLInputElement;
    expect(openid.disabled).toBe(false);
    expect(openid.checked).toBe(true);
    const hint = document.getElementById(openid.getAttribute('aria-describedby') ?? '')?.textContent ?? '';
    expect(hint).toContain('When off, the OpenID apps screen and the users’ authorized apps disappear');
    expect(hint).not.toContain('changes nothing');
    fireEvent.click(openid);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ openid_enabled: false });
  });
});
