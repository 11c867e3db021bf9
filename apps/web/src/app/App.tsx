import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { PageLoader } from '@/components/PageLoader';
import { essentialsQueryOptions } from '@/features/app/app.queries';
import { meQueryOptions } from '@/features/auth/auth.queries';
import { useAuthStore } from '@/features/auth/auth-store';
import { useLanguageReport } from '@/i18n/use-language-report';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';
import { useDocumentSync } from './use-document-sync';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

/** Signed-out pages: the login page and the public enrollment and password reset pages. */
const SIGNED_OUT_PATHS = ['/login', '/enrollment', '/password-reset'];

/**
 * On a signed-out page with no user stored, the session is known to be absent (or irrelevant):
 * asking `/me` would only earn an expected 401 (which the browser logs as an error on every visit).
 * Everywhere else the cookie may still hold a session (a new tab has an empty session storage), so ask.
 */
export function shouldAskForCurrentUser(pathname: string = window.location.pathname): boolean {
  return (
    useAuthStore.getState().user !== undefined || !SIGNED_OUT_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`))
  );
}

/**
 * Spec §1 startup: the page loader stays until the current-user query and the essential-settings
 * query have settled; the router (and its guards, which read the auth store) starts after that.
 */
export function App() {
  const [isReady, setIsReady] = useState(false);
  useDocumentSync();
  useLanguageReport();

  useEffect(() => {
    void Promise.allSettled([
      shouldAskForCurrentUser() ? queryClient.fetchQuery(meQueryOptions) : undefined,
      queryClient.fetchQuery(essentialsQueryOptions),
    ]).then(() => setIsReady(true));
  }, []);

  return <QueryClientProvider client={queryClient}>{isReady ? <RouterProvider router={router} /> : <PageLoader />}</QueryClientProvider>;
}
