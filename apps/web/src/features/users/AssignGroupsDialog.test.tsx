import type { GroupInfo, User } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/features/auth/auth-store';
import { groupKeys } from '@/features/groups/groups.queries';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { AssignGroupsDialog } from './AssignGroupsDialog';

const groups = [
  { id: 1, name: 'admin', is_admin: true, members: ['anna'] },
  { id: 2, name: 'ops', is_admin: false, members: [] },
] as GroupInfo[];
let posts: unknown[] = [];

function renderDialog() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  queryClient.setQueryData(groupKeys.info(), groups);
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <AssignGroupsDialog isOpen usernames={['carl', 'dina']} onClose={() => {}} onDone={() => {}} />
      </QueryClientProvider>
    ),
  });
  render(<RouterProvider router={createRouter({ routeTree: root, history: createMemoryHistory() })} />);
}

beforeEach(() => {
  posts = [];
  useAuthStore.setState({ user: { username: 'anna', is_admin: true } as User });
  setFetchHandler(async (request) => {
    if (request.method === 'POST') posts.push(await request.json());
    return request.method === 'POST' ? new Response(null, { status: 204 }) : jsonResponse(200, groups);
  });
});

describe('AssignGroupsDialog', () => {
  it('asks before adding users to an admin group, naming them', async () => {
    renderDialog();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'admin' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add to groups' }));
    await screen.findByRole('alertdialog', { name: 'Give administrator rights?' });
    expect(screen.getByText(/2 users \(carl, dina\) will get full administrator rights/)).toBeTruthy();
    expect(posts).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Give admin rights' }));
    await waitFor(() => expect(posts).toEqual([{ groups: ['admin'], users: ['carl', 'dina'] }]));
  });

  it('adds to an ordinary group without asking', async () => {
    renderDialog();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'ops' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add to groups' }));
    await waitFor(() => expect(posts).toEqual([{ groups: ['ops'], users: ['carl', 'dina'] }]));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
