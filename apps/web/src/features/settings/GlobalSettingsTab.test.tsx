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
  mount();
}

function mount() {
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

describe('Settings › Global: default network view and branding', () => {
  let calls: { method: string; path: string; body: Record<string, unknown> }[] = [];
  const UPLOADED = '/api/v1/branding/logo/main/0123456789abcdef.png';

  function renderBranding(settings: Settings) {
    calls = [];
    let current = settings;
    setFetchHandler(async (request) => {
      const path = new URL(request.url).pathname;
      const text = request.method === 'GET' ? '' : await request.text();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      calls.push({ method: request.method, path, body });
      if (path === '/api/v1/settings/logo/main') current = { ...current, main_logo_url: UPLOADED };
      else if (path === '/api/v1/settings/1') current = { ...current, instance_name: 'Palisade', main_logo_url: '', nav_logo_url: '' };
      else if (request.method === 'PUT') current = { ...current, ...body };
      return jsonResponse(200, current);
    });
    mount();
  }
  const writes = () => calls.filter((c) => c.method !== 'GET');

  it('shows the saved default view and saves another one', async () => {
    renderBranding({ ...DEFAULT_SETTINGS, default_network_view: 'grid' });
    const form = await screen.findByRole('form', { name: 'Global' });
    const select = within(form).getByLabelText('Initial view of the overview') as HTMLSelectElement;
    expect(select.value).toBe('grid');
    // The old "not available" note is gone: the control is real.
    expect(within(form).queryByText(/Not available in this release: the overview/)).toBeNull();
    fireEvent.change(select, { target: { value: 'list' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'PUT', path: '/api/v1/settings', body: { default_network_view: 'list' } });
  });

  it('uploads a chosen logo file as base64 and shows the URL the server gave it', async () => {
    renderBranding(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'Global' });
    const input = within(form).getByLabelText('Upload a login page logo') as HTMLInputElement;
    expect(within(form).getByText(/at most 250×100 px and 256 KiB/)).toBeTruthy();
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({ method: 'PUT', path: '/api/v1/settings/logo/main', body: { data: btoa('\x89PNG\x01\x02\x03') } });
    await waitFor(() =>
      expect((within(screen.getByRole('form', { name: 'Global' })).getByLabelText(/Login page logo URL/) as HTMLInputElement).value).toBe(
        UPLOADED,
      ),
    );
  });

  it('offers no upload while the form has unsaved changes (the upload would reload the form)', async () => {
    renderBranding(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'Global' });
    fireEvent.change(within(form).getByLabelText('Instance name'), { target: { value: 'Edited' } });
    expect((within(form).getByLabelText('Upload a navigation logo') as HTMLInputElement).disabled).toBe(true);
    expect(within(form).getAllByText('Save or discard your changes before uploading a logo.')).toHaveLength(2);
  });

  it('restores the default branding only after a confirmation', async () => {
    renderBranding({ ...DEFAULT_SETTINGS, instance_name: 'Acme', main_logo_url: UPLOADED });
    const form = await screen.findByRole('form', { name: 'Global' });
    fireEvent.click(within(form).getByRole('button', { name: 'Restore default branding' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore the default branding?' });
    expect(writes()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore default branding' }));
    await waitFor(() => expect(writes()).toEqual([{ method: 'PUT', path: '/api/v1/settings/1', body: {} }]));
    await waitFor(() =>
      expect((within(screen.getByRole('form', { name: 'Global' })).getByLabelText('Instance name') as HTMLInputElement).value).toBe(
        'Palisade',
      ),
    );
  });
});
