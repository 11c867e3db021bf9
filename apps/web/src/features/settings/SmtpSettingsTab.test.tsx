import { DEFAULT_SETTINGS, type Settings } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToastStore } from '@/components/toast-store';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { SmtpSettingsTab } from './SmtpSettingsTab';

let patches: Record<string, unknown>[] = [];
let tests: Record<string, unknown>[] = [];

const CONFIGURED: Settings = {
  ...DEFAULT_SETTINGS,
  smtp_server: 'smtp.example.com',
  smtp_port: 587,
  smtp_encryption: 'starttls',
  smtp_user: 'palisade',
  smtp_password_set: true,
  smtp_sender: 'vpn@example.com',
};

function renderTab(settings: Settings, testAnswer: () => Response = () => new Response(null, { status: 204 })) {
  setFetchHandler(async (request) => {
    const url = new URL(request.url);
    if (request.method === 'PATCH') {
      const body = (await request.json()) as Record<string, unknown>;
      patches.push(body);
      const { smtp_password, ...rest } = body;
      return jsonResponse(200, {
        ...settings,
        ...rest,
        smtp_password_set: smtp_password === undefined ? settings.smtp_password_set : smtp_password !== '',
      });
    }
    if (request.method === 'POST' && url.pathname === '/api/v1/mail/test') {
      tests.push((await request.json()) as Record<string, unknown>);
      return testAnswer();
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
  const page = createRoute({ getParentRoute: () => root, path: '/settings', component: SmtpSettingsTab });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/settings'] }) });
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  patches = [];
  tests = [];
  useToastStore.setState({ toasts: [] });
});

describe('Settings › SMTP', () => {
  it('saves the fields with the port as a number, and keeps the stored password when its field is left empty', async () => {
    renderTab(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'SMTP' });
    expect(within(form).queryByText('Password set')).toBeNull();
    fireEvent.change(within(form).getByLabelText('Server address'), { target: { value: 'smtp.example.com' } });
    fireEvent.change(within(form).getByLabelText('Port'), { target: { value: '465' } });
    fireEvent.change(within(form).getByLabelText('Encryption'), { target: { value: 'tls' } });
    fireEvent.change(within(form).getByLabelText('Sender address'), { target: { value: 'vpn@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({
      smtp_server: 'smtp.example.com',
      smtp_port: 465,
      smtp_encryption: 'tls',
      smtp_user: '',
      smtp_sender: 'vpn@example.com',
    });
  });

  it('shows that a password is set without showing it; a new one is sent, and Remove sends an empty one', async () => {
    renderTab(CONFIGURED);
    const form = await screen.findByRole('form', { name: 'SMTP' });
    expect(within(form).getByText('Password set')).toBeTruthy();
    expect((within(form).getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
    fireEvent.click(within(form).getByRole('button', { name: 'Remove password' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({ smtp_password: '' });
  });

  it('refuses a port that is not a number or out of range, sending nothing', async () => {
    renderTab(CONFIGURED);
    const form = await screen.findByRole('form', { name: 'SMTP' });
    fireEvent.change(within(form).getByLabelText('Port'), { target: { value: '70000' } });
    fireEvent.change(within(form).getByLabelText('Sender address'), { target: { value: 'not-an-address' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Maximum value is 65535')).toBeTruthy();
    expect(patches).toEqual([]);
  });

  it('sends a test mail in the console language and shows the server reason when sending fails', async () => {
    renderTab(CONFIGURED, () =>
      jsonResponse(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        code: 'mail.send_failed',
        detail: 'Error sending email: 535 5.7.8 Authentication credentials invalid',
      }),
    );
    const card = await screen.findByRole('form', { name: 'Test email' });
    fireEvent.change(within(card).getByLabelText('Recipient'), { target: { value: 'ops@example.com' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Send test email' }));
    await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
    expect(tests).toEqual([{ to: 'ops@example.com', locale: 'en' }]);
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      kind: 'error',
      message: 'Error sending email: 535 5.7.8 Authentication credentials invalid',
    });
  });

  it('confirms a sent test mail', async () => {
    renderTab(CONFIGURED);
    const card = await screen.findByRole('form', { name: 'Test email' });
    fireEvent.change(within(card).getByLabelText('Recipient'), { target: { value: 'ops@example.com' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Send test email' }));
    await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
    expect(useToastStore.getState().toasts[0]).toMatchObject({ kind: 'success', message: 'Test email sent to ops@example.com.' });
  });

  it('offers no test mail before the server, port and sender are saved', async () => {
    renderTab(DEFAULT_SETTINGS);
    const card = await screen.findByRole('form', { name: 'Test email' });
    expect(within(card).getByText('Save the server address, port and sender address first.')).toBeTruthy();
    expect((within(card).getByRole('button', { name: 'Send test email' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
