import type { SettingsEssentials, User } from '@palisade/contracts';
import { Link, type LinkProps, useRouterState } from '@tanstack/react-router';
import { type ConsoleModule, isModuleEnabled } from '@/features/app/modules';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { NavIcon } from './NavIcon';

interface NavItem {
  to: LinkProps['to'];
  label: MessageKey;
  icon: Parameters<typeof NavIcon>[0]['name'];
  /** Hidden while this module is switched off in the settings. */
  module?: ConsoleModule;
}

/** Administrators' entries, in order; a new screen of a module names the module. */
const ADMIN_ITEMS: readonly NavItem[] = [
  { to: '/overview', label: 'nav.overview', icon: 'overview', module: 'wireguard' },
  { to: '/connected-users', label: 'nav.connectedUsers', icon: 'users', module: 'wireguard' },
  { to: '/users', label: 'nav.users', icon: 'users' },
  { to: '/groups', label: 'nav.groups', icon: 'groups' },
  { to: '/locations', label: 'nav.locations', icon: 'locations', module: 'wireguard' },
  { to: '/network-devices', label: 'nav.networkDevices', icon: 'devices', module: 'wireguard' },
  { to: '/acl', label: 'nav.acl', icon: 'acl', module: 'wireguard' },
  { to: '/webhooks', label: 'nav.webhooks', icon: 'webhooks', module: 'webhooks' },
  { to: '/provisioners', label: 'nav.provisioners', icon: 'provisioners', module: 'worker' },
  { to: '/openid-apps', label: 'nav.openidApps', icon: 'key', module: 'openid' },
  { to: '/enrollment-settings', label: 'nav.enrollment', icon: 'enrollment' },
  { to: '/support', label: 'nav.support', icon: 'support' },
  { to: '/settings', label: 'nav.settings', icon: 'settings' },
];

/** Entries for every signed-in user, after the administrators' ones (the pages scope what each sees). */
const EVERYONE_ITEMS: readonly NavItem[] = [{ to: '/activity-log', label: 'activity.nav', icon: 'activity' }];

const EXACT = { exact: true, includeSearch: false } as const;

/** The entry a path belongs to: another user's pages belong to Users, one's own to My profile. */
export function activeNavEntry(pathname: string, user: Pick<User, 'username' | 'is_admin'>): string | undefined {
  const profile = /^\/users\/([^/]+)/.exec(pathname);
  if (profile) {
    const username = decodeURIComponent(profile[1] ?? '');
    if (username === user.username) return 'profile';
    return user.is_admin ? '/users' : undefined;
  }
  return [...ADMIN_ITEMS, ...EVERYONE_ITEMS].map((item) => String(item.to)).find((to) => pathname === to || pathname.startsWith(`${to}/`));
}

export function SidebarNav({ user, settings }: { user: User; settings: SettingsEssentials | undefined }) {
  const { t } = useTranslation();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const active = activeNavEntry(pathname, user);
  // The router marks exact matches itself; deeper pages (`/locations/3`, another user's profile) are marked here.
  const current = (key: string) => ({ activeOptions: EXACT, ...(active === key ? ({ 'aria-current': 'page' } as const) : {}) });
  const adminItems = user.is_admin ? ADMIN_ITEMS.filter((item) => !item.module || isModuleEnabled(settings, item.module)) : [];
  const items = [...adminItems, ...EVERYONE_ITEMS];
  return (
    <nav aria-label={t('nav.main')} className="sidebar__nav">
      <ul>
        {items.map((item) => (
          <li key={String(item.to)}>
            <Link to={item.to} className="nav-link" {...current(String(item.to))}>
              <NavIcon name={item.icon} />
              {t(item.label)}
            </Link>
          </li>
        ))}
        <li>
          <Link to="/users/$username" params={{ username: user.username }} className="nav-link" {...current('profile')}>
            <NavIcon name="profile" />
            {t('nav.profile')}
          </Link>
        </li>
      </ul>
    </nav>
  );
}
