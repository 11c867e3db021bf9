import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { PageLoader } from '@/components/PageLoader';
import { essentialsQueryOptions } from '@/features/app/app.queries';
import { meQueryOptions } from '@/features/auth/auth.queries';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';
import { useDocumentSync } from './use-document-sync';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

/**
 * Spec §1 startup: the page loader stays until the current-user query and the essential-settings
 * query have settled; the router (and its guards, which read the auth store) starts after that.
 */
export function App() {
  const [isReady, setIsReady] = useState(false);
  useDocumentSync();

  useEffect(() => {
    void Promise.allSettled([queryClient.fetchQuery(meQueryOptions), queryClient.fetchQuery(essentialsQueryOptions)]).then(() =>
      setIsReady(true),
    );
  }, []);

  return <QueryClientProvider client={queryClient}>{isReady ? <RouterProvider router={router} /> : <PageLoader />}</QueryClientProvider>;
}
