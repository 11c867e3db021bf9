import type { AclRule } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { AclRulesPage } from './AclRulesPage';

const NEW_RULE = {
  id: 1,
  name: 'Dev web',
  priority: 100,
  status: 'new',
  state: 'new',
  enabled: true,
  all_locations: true,
  locations: [],
  allow_all_users: false,
  allowed_users: [],
  allowed_groups: ['dev'],
  allow_all_network_devices: false,
  allowed_network_devices: [],
  deny_all_users: false,
  denied_users: [],
  denied_groups: [],
  deny_all_network_devices: false,
  denied_network_devices: [],
  destinations: ['10.1.0.0/24'],
  ports: ['8080'],
  protocols: [],
  aliases: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
} satisfies AclRule;

let rules: AclRule[] = [];

async function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({ getParentRoute: () => root, path: '/acl', component: AclRulesPage });
  const others = ['/acl/aliases', '/acl/rules/new', '/acl/rules/$id'].map((path) =>
    createRoute({ getParentRoute: () => root, path, component: () => null }),
  );
  const router = createRouter({
    routeTree: root.addChildren([page, ...others]),
    history: createMemoryHistory({ initialEntries: ['/acl'] }),
  });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  rules = [NEW_RULE, { ...NEW_RULE, id: 2, name: 'Db', status: 'applied', state: 'applied', allowed_groups: ['ops'] }];
  setFetchHandler((request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/v1/acl/rule') return jsonResponse(200, rules);
    if (path === '/api/v1/network' || path === '/api/v1/acl/alias') return jsonResponse(200, []);
    return jsonResponse(404, {});
  });
});

const section = (name: string) => screen.getByRole('region', { name });

describe('AclRulesPage', () => {
  it('lists pending and deployed rules apart, filters both, and edits from the row menu', async () => {
    const router = await renderPage();
    expect(within(await screen.findByRole('table', { name: 'Pending changes' })).getByText('Dev web')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Deployed rules' })).getByText('Db')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('User or group'), { target: { value: 'group:ops' } });
    expect(within(section('Pending changes')).getByText('No rules match the filters.')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Deployed rules' })).getByText('Db')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Db' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/acl/rules/2'));
  });

  it('says there is nothing deployed yet (not "no match") once the filters are back to showing everything', async () => {
    rules = [NEW_RULE];
    await renderPage();
    await screen.findByRole('table', { name: 'Pending changes' });
    expect(within(section('Deployed rules')).getByText('No deployed rules yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'expired' } });
    expect(within(section('Pending changes')).getByText('No rules match the filters.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'all' } });
    expect(within(section('Deployed rules')).getByText('No deployed rules yet.')).toBeTruthy();
  });
});
