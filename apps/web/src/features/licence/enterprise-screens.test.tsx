import type { ActivityLogStream, EnterpriseInfo } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ActivityLogStreamingTab } from '@/features/settings/ActivityLogStreamingTab';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';

const FREE = { users: 5, devices: 10, locations: 1, gateways: 1 };
const info = (enabled: boolean): EnterpriseInfo => ({
  licence: null,
  status: 'no_licence',
  grace_period: false,
  grace_ends_at: null,
  usage: { users: enabled ? 2 : 9, devices: 0, locations: 1, gateways: 0 },
  limits: FREE,
  exceeded: enabled ? [] : ['users'],
  free_limits: FREE,
  enterprise_enabled: enabled,
});
const STREAM: ActivityLogStream = {
  id: 3,
  kind: 'vector_http',
  name: 'siem',
  url: 'https://vector.example.com/',
  username: '',
  has_password: false,
  certificate: '',
  state: { lag: 0 },
};

function renderTab(enabled: boolean) {
  setFetchHandler((request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/v1/enterprise_info') return jsonResponse(200, info(enabled));
    if (pathname === '/api/v1/activity_log_stream') return jsonResponse(200, [STREAM]);
    return new Response(null, { status: 404 });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ActivityLogStreamingTab />
    </QueryClientProvider>,
  );
}

/** An enterprise screen (Settings › Activity log streaming) with and without enterprise features on. */
describe('activity log streaming and the licence', () => {
  it('over the free limits: the upgrade prompt shows, existing streams stay listed, and nothing offers a change', async () => {
    renderTab(false);
    expect(await screen.findByText('A licence is required to change this')).toBeTruthy();
    expect(screen.getByText(/this instance is over them: Users 9 \/ 5\./)).toBeTruthy();
    expect(await screen.findByText('siem')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add destination' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /Actions for siem/ })).toBeNull();
  });

  it('within the limits: no prompt, and the changes are offered', async () => {
    renderTab(true);
    expect(await screen.findByText('siem')).toBeTruthy();
    await screen.findByRole('button', { name: 'Actions for siem' });
    expect(screen.queryByText('A licence is required to change this')).toBeNull();
    expect((screen.getByRole('button', { name: 'Add destination' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
