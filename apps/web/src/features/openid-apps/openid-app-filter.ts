import type { OAuthClient } from '@palisade/contracts';

export const OPENID_APP_STATE_FILTERS = ['all', 'enabled', 'disabled'] as const;
export type OpenIdAppStateFilter = (typeof OPENID_APP_STATE_FILTERS)[number];

/** Spec §2: search (by name or client ID), filter all / enabled / disabled. */
export function filterOpenIdApps(apps: readonly OAuthClient[], search: string, state: OpenIdAppStateFilter): OAuthClient[] {
  const needle = search.trim().toLowerCase();
  return apps.filter(
    (app) =>
      (state === 'all' || app.enabled === (state === 'enabled')) &&
      (needle === '' || app.name.toLowerCase().includes(needle) || app.client_id.toLowerCase().includes(needle)),
  );
}
