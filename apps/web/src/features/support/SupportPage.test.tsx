import type { SupportConfiguration } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useToastStore } from '@/components/toast-store';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { SupportPage } from './SupportPage';

const downloads = vi.hoisted(() => [] as { name: string; text: string; type: string | undefined }[]);
vi.mock('@/lib/download', () => ({
  downloadText: (name: string, text: string, type?: string) => downloads.push({ name, text, type }),
}));

const CONFIGURATION: SupportConfiguration = {
  generated_at: '2026-11-25T01:00:00.000Z',
  palisade_version: '0.1.0',
  node_version: 'v20.0.0',
  os: { platform: 'linux', release: '6.1', arch: 'x64' },
  database: { kind: 'postgresql', server_version: '16.4', migrations_applied: 32, migration_level: '0031_x' },
  modules: { wireguard: true, webhooks: true, worker: true, openid: true },
  settings: { smtp_password: '[redacted]' },
  external_providers: [],
  counts: { users: 3, user_devices: 2, network_devices: 1, locations: 1, gateways: 1, gateways_connected: 1 },
  gateways: [],
  support_email: 'help@vendor.example',
};

let mails = 0;

function renderPage(options: { configuration?: SupportConfiguration; logs?: () => Response; mail?: () => Response } = {}) {
  setFetchHandler((request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/v1/support/configuration') return jsonResponse(200, options.configuration ?? CONFIGURATION);
    if (path === '/api/v1/support/logs')
      return options.logs?.() ?? new Response('{"msg":"request completed"}\n', { status: 200, headers: { 'content-type': 'text/plain' } });
    if (path === '/api/v1/mail/support' && request.method === 'POST') {
      mails += 1;
      return options.mail?.() ?? new Response(null, { status: 204 });
    }
    return new Response(null, { status: 404 });
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({ getParentRoute: () => root, path: '/support', component: SupportPage });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/support'] }) });
  render(<RouterProvider router={router} />);
}

const card = (name: string) => screen.findByRole('region', { name });

beforeEach(() => {
  downloads.length = 0;
  mails = 0;
  useToastStore.setState({ toasts: [] });
});

describe('Support page', () => {
  it('downloads the support data as a JSON file and the logs as a text file', async () => {
    renderPage();
    fireEvent.click(within(await card('Support data')).getByRole('button', { name: 'Download support data' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]?.name).toMatch(/^palisade-support-.*\.json$/);
    expect(downloads[0]?.type).toBe('application/json');
    expect(JSON.parse(downloads[0]?.text ?? '{}').counts.users).toBe(3);
    fireEvent.click(within(await card('Logs')).getByRole('button', { name: 'Download logs' }));
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads[1]?.name).toMatch(/^palisade-logs-.*\.txt$/);
    expect(downloads[1]?.text).toBe('{"msg":"request completed"}\n');
  });

  it('shows a failed download as an error in its card', async () => {
    renderPage({ logs: () => problemResponse(403, 'auth.forbidden') });
    const logs = await card('Logs');
    fireEvent.click(within(logs).getByRole('button', { name: 'Download logs' }));
    expect((await within(logs).findByRole('alert')).textContent).toBe('You do not have permission to do this.');
    expect(downloads).toHaveLength(0);
  });

  it('sends by email to the support address after confirmation', async () => {
    renderPage();
    const mail = await card('Send by email');
    await within(mail).findByText('help@vendor.example');
    fireEvent.click(within(mail).getByRole('button', { name: 'Send by email' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('help@vendor.example');
    expect(mails).toBe(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send by email' }));
    await waitFor(() => expect(mails).toBe(1));
    await waitFor(() =>
      expect(useToastStore.getState().toasts.map((t) => t.message)).toEqual(['Support data sent to help@vendor.example.']),
    );
  });

  it("shows 'Error sending email' with the server's reason", async () => {
    renderPage({
      mail: () =>
        jsonResponse(
          400,
          {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            code: 'mail.send_failed',
            detail: 'Error sending email: 535 Authentication failed',
          },
          'application/problem+json',
        ),
    });
    const mail = await card('Send by email');
    await within(mail).findByText('help@vendor.example');
    fireEvent.click(within(mail).getByRole('button', { name: 'Send by email' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Send by email' }));
    expect((await within(mail).findByRole('alert')).textContent).toBe('Error sending email: 535 Authentication failed');
  });

  it('without a support address, says how to set one and offers no sending', async () => {
    const { support_email: _, ...withoutAddress } = CONFIGURATION;
    renderPage({ configuration: withoutAddress });
    const mail = await card('Send by email');
    await within(mail).findByText(/set SUPPORT_EMAIL on the server/);
    expect((within(mail).getByRole('button', { name: 'Send by email' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
