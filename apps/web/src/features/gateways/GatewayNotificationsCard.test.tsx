import { DEFAULT_SETTINGS, type Settings } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToastStore } from '@/components/toast-store';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { GatewayNotificationsCard } from './GatewayNotificationsCard';

let patches: Record<string, unknown>[] = [];

const WITH_SMTP: Settings = { ...DEFAULT_SETTINGS, smtp_server: 'smtp.example.com', smtp_port: 587, smtp_sender: 'vpn@example.com' };

function renderCard(settings: Settings, patchAnswer?: (body: Record<string, unknown>) => Response) {
  setFetchHandler(async (request) => {
    if (request.method === 'PATCH') {
      const body = (await request.json()) as Record<string, unknown>;
      patches.push(body);
      return patchAnswer ? patchAnswer(body) : jsonResponse(200, { ...settings, ...body });
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
  const page = createRoute({ getParentRoute: () => root, path: '/settings', component: GatewayNotificationsCard });
  const router = createRouter({
    routeTree: root.addChildren([page]),
    history: createMemoryHistory({ initialEntries: ['/settings?tab=notifications'] }),
  });
  render(<RouterProvider router={router} />);
}

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;

beforeEach(() => {
  patches = [];
  useToastStore.setState({ toasts: [] });
});

describe('GatewayNotificationsCard', () => {
  it('without SMTP: says so, links to the SMTP tab and keeps every control disabled', async () => {
    renderCard(DEFAULT_SETTINGS);
    expect(await screen.findByText(/SMTP is not configured yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Configure SMTP' }).getAttribute('href')).toBe('/settings?tab=smtp');
    for (const name of ['Disconnect notifications', 'Inactivity threshold (minutes)', 'Reconnect notifications']) {
      expect(field(name).disabled, name).toBe(true);
    }
    expect(save().disabled).toBe(true);
  });

  it('with SMTP: shows the saved values and saves only the notification fields', async () => {
    renderCard({ ...WITH_SMTP, gateway_inactivity_threshold: 15, gateway_reconnect_notifications_enabled: true });
    await waitFor(() => expect(field('Inactivity threshold (minutes)').value).toBe('15'));
    expect(screen.queryByText(/SMTP is not configured yet/)).toBeNull();
    expect(field('Reconnect notifications').checked).toBe(true);
    expect(save().disabled).toBe(true);

    fireEvent.click(field('Disconnect notifications'));
    fireEvent.change(field('Inactivity threshold (minutes)'), { target: { value: '30' } });
    fireEvent.click(save());
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({
      gateway_disconnect_notifications_enabled: true,
      gateway_inactivity_threshold: 30,
      gateway_reconnect_notifications_enabled: true,
    });
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.message)).toContain('Settings saved.'));
  });

  it('checks the threshold before saving and shows the server refusal', async () => {
    renderCard(WITH_SMTP, () =>
      jsonResponse(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        code: 'mail.not_configured',
        detail: 'Outgoing mail is not configured.',
      }),
    );
    const threshold = await screen.findByLabelText('Inactivity threshold (minutes)');
    for (const value of ['0', '1441', 'abc']) {
      fireEvent.change(threshold, { target: { value } });
      fireEvent.click(save());
      expect(threshold.getAttribute('aria-invalid'), value).toBe('true');
    }
    expect(patches).toHaveLength(0);

    fireEvent.change(threshold, { target: { value: '10' } });
    fireEvent.click(field('Disconnect notifications'));
    fireEvent.click(save());
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(patches).toHaveLength(1);
  });
});
