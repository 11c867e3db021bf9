import type { FileRoutesById } from '@/routeTree.gen';
import type { MessageKey } from '@/i18n/en';
import type { Translate } from '@/i18n/translate';

/**
 * The page part of each screen's document title, by route id. A new screen adds its entry here
 * (a screen without one is titled with the instance name alone).
 */
const PAGE_TITLES: Partial<Record<keyof FileRoutesById, MessageKey>> = {
  '/login': 'login.title',
  '/consent': 'consent.pageTitle',
  '/auth/redirect': 'redirect.title',
  '/_authed/_admin/users/': 'users.title',
  '/_authed/_admin/groups': 'groups.title',
  '/_authed/_admin/settings': 'settings.title',
  '/_authed/_admin/support': 'support.title',
  '/_authed/_admin/network-devices': 'networkDevices.title',
  '/_authed/_admin/locations/': 'locations.title',
  '/_authed/_admin/locations/new': 'wizard.title',
  '/_authed/_admin/locations/$id': 'title.location',
  '/_authed/_admin/locations/$id_/gateway': 'gateways.setupTitlePlain',
  '/_authed/_admin/overview/': 'nav.overview',
  '/_authed/_admin/connected-users': 'nav.connectedUsers',
  '/_authed/_admin/webhooks/': 'webhooks.title',
  '/_authed/_admin/webhooks/$id': 'webhooks.deliveries',
  '/_authed/_admin/openid-apps/': 'openidApps.title',
  '/_authed/_admin/provisioners': 'provisioners.title',
  '/_authed/_admin/acl/': 'acl.title',
  '/_authed/_admin/acl/aliases': 'acl.title',
  '/_authed/_admin/acl/rules/new': 'acl.rule.add',
  '/_authed/_admin/acl/rules/$id': 'acl.rule.edit',
  '/_authed/_admin/overview/$locationId': 'overview.title',
  '/_authed/users/$username_/add-device': 'addDevice.title',
  '/_authed/activity-log/': 'activity.title',
  '/_authed/activity-log/live': 'activity.live.title',
};

export interface TitleMatch {
  routeId: string;
  params: Record<string, string | undefined>;
}

export type PageState = 'ok' | 'notFound' | 'moduleDisabled';

/** The page's name: from the table, a user's pages by the username. */
function pageName(t: Translate, leaf: TitleMatch | undefined, state: PageState): string | undefined {
  if (state === 'notFound') return t('notFound.title');
  if (state === 'moduleDisabled') return t('module.disabled.title');
  if (!leaf) return undefined;
  if (leaf.routeId === '/_authed/users/$username') return leaf.params.username;
  const key = PAGE_TITLES[leaf.routeId as keyof FileRoutesById];
  return key ? t(key) : undefined;
}

/** "<page> · <instance name>", in the chosen language; the instance name alone where the page has no name. */
export function documentTitle(t: Translate, matches: readonly TitleMatch[], instance: string, state: PageState = 'ok'): string {
  const page = pageName(t, matches.at(-1), state);
  return page ? `${page} · ${instance}` : instance;
}
