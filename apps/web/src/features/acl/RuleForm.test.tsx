import { ApiError } from '@palisade/api-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { RuleForm } from './RuleForm';
import { EMPTY_RULE } from './rule-form';

async function renderForm(onSubmit: (body: unknown) => Promise<unknown>) {
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
    path: '/acl/rules/new',
    component: () => <RuleForm initial={EMPTY_RULE} isPending={false} onSubmit={onSubmit} />,
  });
  const list = createRoute({ getParentRoute: () => root, path: '/acl', component: () => <h1>Rules</h1> });
  const router = createRouter({
    routeTree: root.addChildren([page, list]),
    history: createMemoryHistory({ initialEntries: ['/acl/rules/new'] }),
  });
  render(<RouterProvider router={router} />);
  await screen.findByRole('button', { name: 'Save rule' });
}

beforeEach(() => {
  setFetchHandler((request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/v1/group') return jsonResponse(200, [{ name: 'dev', members: [], is_admin: false }]);
    if (path === '/api/v1/network' || path === '/api/v1/acl/alias') return jsonResponse(200, []);
    return jsonResponse(404, {});
  });
});

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save rule' }));
const side = (name: 'Allowed' | 'Denied') => screen.getByRole('group', { name });

describe('RuleForm', () => {
  it('shows the spec §5 messages inline and sends nothing while they stand', async () => {
    const onSubmit = vi.fn(async () => undefined);
    await renderForm(onSubmit);
    save();
    expect(await screen.findByText('Field required')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Dev web' } });
    save();
    expect(within(side('Allowed')).getByText('Allow at least one user, group or network device')).toBeTruthy();

    fireEvent.click(await within(side('Allowed')).findByRole('checkbox', { name: 'dev' }));
    expect(within(side('Allowed')).queryByText('Allow at least one user, group or network device')).toBeNull();
    fireEvent.click(within(side('Denied')).getByRole('checkbox', { name: 'dev' }));
    fireEvent.change(screen.getByLabelText('Ports', { exact: false }), { target: { value: '0' } });
    fireEvent.blur(screen.getByLabelText('Ports', { exact: false }));
    save();
    expect(screen.getByText('Enter a port or a range between 1 and 65535 (for example 8000-8100)')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Remove 0' }));
    save();
    expect(within(side('Denied')).getByText('The same members cannot be both allowed and denied')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.click(within(side('Denied')).getByRole('checkbox', { name: 'dev' }));
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Dev web', allowed_groups: ['dev'], denied_groups: [], all_locations: true }),
    );
  });

  it("puts the API's field errors (400) on their fields", async () => {
    const refusal = new ApiError(400, {
      code: 'validation.failed',
      errors: [{ path: 'body/allowed_groups/0', code: 'group.not_found', message: 'Group not found', params: { name: 'dev' } }],
    });
    const onSubmit = vi.fn(async () => refusal);
    await renderForm(onSubmit);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Dev web' } });
    fireEvent.click(await within(side('Allowed')).findByRole('checkbox', { name: 'dev' }));
    save();
    expect(await within(side('Allowed')).findByText('Group not found: dev')).toBeTruthy();
    expect(within(side('Denied')).queryByRole('alert')).toBeNull();
  });
});
