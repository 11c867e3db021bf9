import type { AclRule } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setFetchHandler } from '@/test/fetch-mock';
import { PendingRules } from './PendingRules';

const rule = (id: number, name: string): AclRule => ({
  id,
  name,
  priority: 100,
  status: 'new',
  state: 'new',
  enabled: true,
  all_locations: true,
  locations: [],
  allow_all_users: true,
  allowed_users: [],
  allowed_groups: [],
  allow_all_network_devices: false,
  allowed_network_devices: [],
  deny_all_users: false,
  denied_users: [],
  denied_groups: [],
  deny_all_network_devices: false,
  denied_network_devices: [],
  destinations: [],
  ports: [],
  protocols: [],
  aliases: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const RULES = [rule(1, 'Web'), rule(2, 'Db'), rule(3, 'Ssh')];
let sent: { path: string; body: unknown }[] = [];

async function renderPending(shown: AclRule[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({
    getParentRoute: () => root,
    path: '/acl',
    component: () => <PendingRules rules={shown} allPending={RULES} tableProps={{ locations: [], aliases: [], onAction: () => {} }} />,
  });
  const edit = createRoute({ getParentRoute: () => root, path: '/acl/rules/$id', component: () => null });
  const router = createRouter({ routeTree: root.addChildren([page, edit]), history: createMemoryHistory({ initialEntries: ['/acl'] }) });
  render(<RouterProvider router={router} />);
  await screen.findByRole('table', { name: 'Pending changes' });
}

beforeEach(() => {
  sent = [];
  setFetchHandler(async (request) => {
    sent.push({ path: `${request.method} ${new URL(request.url).pathname}`, body: await request.json() });
    return new Response(null, { status: 204 });
  });
});

describe('PendingRules', () => {
  it('deploys the selected rules after a confirmation giving their count', async () => {
    await renderPending(RULES);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Web' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Ssh' }));
    expect(screen.getByText('2 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Deploy selected' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Deploy changes' });
    expect(within(dialog).getByText('Deploy 2 pending changes? The gateways enforce them within seconds.')).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deploy' }));
    await waitFor(() => expect(sent).toEqual([{ path: 'PUT /api/v1/acl/rule/apply', body: { rules: [1, 3] } }]));
  });

  it('discards every pending rule, also those the filters hide, when none is selected', async () => {
    await renderPending([RULES[0] as AclRule]);
    fireEvent.click(screen.getByRole('button', { name: 'Discard all' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Discard changes' });
    expect(within(dialog).getByText(/^Discard 3 pending changes\?/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(sent).toEqual([{ path: 'PUT /api/v1/acl/rule/discard', body: { rules: [1, 2, 3] } }]));
  });
});
