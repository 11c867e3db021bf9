import {
  createBrowserHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Link,
  Outlet,
  RouterProvider,
  useNavigate,
} from '@tanstack/react-router';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLeaveGuard } from './use-leave-guard';

function GuardedPage() {
  const [isDirty, setIsDirty] = useState(false);
  const navigate = useNavigate();
  useLeaveGuard(isDirty, 'You will lose your changes.');
  return (
    <>
      <button type="button" onClick={() => setIsDirty(true)}>
        edit
      </button>
      <button type="button" onClick={() => setIsDirty(false)}>
        save
      </button>
      <button type="button" onClick={() => void navigate({ to: '/groups', ignoreBlocker: true })}>
        finish
      </button>
      <Link to="/groups">elsewhere</Link>
      <Link to="/" search={{ tab: undefined }}>
        this page
      </Link>
      <Link to="/" search={{ tab: 'b' }}>
        another tab
      </Link>
    </>
  );
}

function renderApp() {
  const root = createRootRoute({ component: Outlet });
  const page = createRoute({
    getParentRoute: () => root,
    path: '/',
    component: GuardedPage,
    validateSearch: (s: Record<string, unknown>) => ({ tab: typeof s.tab === 'string' ? s.tab : undefined }),
  });
  const other = createRoute({ getParentRoute: () => root, path: '/groups', component: () => <h1>Other page</h1> });
  const router = createRouter({ routeTree: root.addChildren([page, other]), history: createBrowserHistory() });
  render(<RouterProvider router={router} />);
  return router;
}

const fireBeforeUnload = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('useLeaveGuard', () => {
  beforeEach(() => window.history.replaceState(null, '', '/'));
  afterEach(() => vi.restoreAllMocks());

  it('lets navigation through without asking while there is nothing to lose', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    renderApp();
    fireEvent.click(await screen.findByRole('link', { name: 'elsewhere' }));
    await screen.findByRole('heading', { name: 'Other page' });
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks with the message before leaving, stays when refused and leaves when confirmed', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const router = renderApp();
    fireEvent.click(await screen.findByRole('button', { name: 'edit' }));

    fireEvent.click(screen.getByRole('link', { name: 'elsewhere' }));
    await waitFor(() => expect(confirm).toHaveBeenCalledWith('You will lose your changes.'));
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('button', { name: 'edit' })).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'elsewhere' }));
    await screen.findByRole('heading', { name: 'Other page' });
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('guards reload and closing the tab only while active', async () => {
    renderApp();
    fireEvent.click(await screen.findByRole('button', { name: 'edit' }));
    await waitFor(() => expect(fireBeforeUnload()).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(fireBeforeUnload()).toBe(false));
  });

  it('asks before another tab of the same page, not before the same location or a navigation the page starts itself', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderApp();
    fireEvent.click(await screen.findByRole('button', { name: 'edit' }));
    fireEvent.click(screen.getByRole('link', { name: 'this page' }));
    await act(async () => {});
    expect(confirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('link', { name: 'another tab' }));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(window.location.search).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'finish' }));
    await screen.findByRole('heading', { name: 'Other page' });
    expect(confirm).toHaveBeenCalledTimes(1);
  });
});
