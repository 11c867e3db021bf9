import { getRouteApi } from '@tanstack/react-router';
import { OverviewPage } from './OverviewPage';

const route = getRouteApi('/_authed/_admin/overview/');

export function OverviewAllPage() {
  return <OverviewPage search={route.useSearch()} />;
}
