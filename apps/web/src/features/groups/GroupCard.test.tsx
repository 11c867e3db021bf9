import type { GroupInfo, User } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/features/auth/auth-store';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { GroupCard } from './GroupCard';
import { groupKeys } from './groups.queries';

const me: User = {
  id: 1,
  username: 'anna',
  first_name: 'Anna',
  last_name: 'Admin',
  email: 'anna@example.com',
  is_active: true,
  is_admin: true,
  groups: ['admin'],
  mfa_enabled: false,
  enrolled: true,
} as User;
const groups: GroupInfo[] = [
  { id: 1, name: 'admin', is_admin: true, members: ['anna'] },
  { id: 2, name: 'ops', is_admin: false, members: ['anna'] },
] as GroupInfo[];

let calls: string[] = [];

function renderCard(group: GroupInfo) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  queryClient.setQueryData(groupKeys.info(), groups);
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({
    getParentRoute: () => root,
    path: '/groups',
    component: () => <GroupCard group={group} onEdit={() => {}} onDelete={() => {}} />,
  });
  const profile = createRoute({ getParentRoute: () => root, path: '/users/$username', component: () => <h1>Profile page</h1> });
  const router = createRouter({
    routeTree: root.addChildren([page, profile]),
    history: createMemoryHistory({ initialEntries: ['/groups'] }),
  });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  calls = [];
  useAuthStore.setState({ user: me });
  setFetchHandler((request) => {
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.pathname}`);
    if (url.pathname === '/api/v1/me') return jsonResponse(200, { ...me, is_admin: false, groups: [] });
    if (url.pathname === '/api/v1/group/admin' && request.method === 'POST')
      return jsonResponse(
        404,
        {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          code: 'user.not_found',
          errors: [{ path: 'username', code: 'user.not_found', message: 'User not found: ghost', params: { username: 'ghost' } }],
        },
        'application/problem+json',
      );
    if (request.method === 'DELETE') return new Response(null, { status: 204 });
    return jsonResponse(200, groups);
  });
});

describe('GroupCard', () => {
  it('asks before an admin removes their own admin rights, then refreshes the session and moves to the profile', async () => {
    const router = renderCard(groups[0] as GroupInfo);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove anna from admin' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove your own administrator rights?' });
    expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove my admin rights' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/anna'));
    expect(dialog.isConnected).toBe(false);
    expect(calls).toContain('DELETE /api/v1/group/admin/user/anna');
    expect(calls).toContain('GET /api/v1/me');
    expect(useAuthStore.getState().user?.is_admin).toBe(false);
  });

  it('removes from a non-admin group without asking', async () => {
    renderCard(groups[1] as GroupInfo);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove anna from ops' }));
    await waitFor(() => expect(calls).toContain('DELETE /api/v1/group/ops/user/anna'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks before adding a member to an admin group; an unknown user is named at the field', async () => {
    renderCard(groups[0] as GroupInfo);
    fireEvent.change(await screen.findByRole('combobox', { name: 'Add a member to admin' }), { target: { value: 'ghost' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add member' }));
    await screen.findByRole('alertdialog', { name: 'Give administrator rights?' });
    expect(screen.getByText(/ghost will get full administrator rights/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Give admin rights' }));
    const error = await screen.findByText('User not found: ghost');
    expect(error.getAttribute('role')).toBe('alert');
    expect(screen.getByRole('combobox', { name: 'Add a member to admin' }).getAttribute('aria-invalid')).toBe('true');
  });
});
