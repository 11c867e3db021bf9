import { getRouteApi } from '@tanstack/react-router';
import { OverviewPage } from './OverviewPage';

const route = getRouteApi('/_authed/_admin/overview/$locationId');

export function OverviewLocationPage() {
  const { locationId } = route.useParams();
  return <OverviewPage locationId={Number(locationId)} search={route.useSearch()} />;
}
