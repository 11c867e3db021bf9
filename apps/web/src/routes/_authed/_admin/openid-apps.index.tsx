import { createFileRoute } from '@tanstack/react-router';
import { OpenIdAppsPage } from '@/features/openid-apps/OpenIdAppsPage';
import { openIdAppsQueryOptions } from '@/features/openid-apps/openid-apps.queries';

export const Route = createFileRoute('/_authed/_admin/openid-apps/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(openIdAppsQueryOptions);
  },
  component: OpenIdAppsPage,
});
