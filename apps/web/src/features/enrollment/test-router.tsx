import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { validateTokenSearch } from './token-search';

/** Renders one public page at `url` with the routes its links name (login, password reset, enrollment). */
export function renderPublicPage(pages: { enrollment?: () => ReactNode; reset?: () => ReactNode }, url: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const blank = () => <p>login page</p>;
  const routes = [
    createRoute({ getParentRoute: () => root, path: '/login', component: blank }),
    createRoute({
      getParentRoute: () => root,
      path: '/enrollment',
      validateSearch: validateTokenSearch,
      component: pages.enrollment ?? blank,
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/password-reset',
      validateSearch: validateTokenSearch,
      component: pages.reset ?? blank,
    }),
  ];
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: [url] }) });
  render(<RouterProvider router={router} />);
  return router;
}
