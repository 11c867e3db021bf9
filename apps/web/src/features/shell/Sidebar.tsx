import type { User } from '@palisade/contracts';
import { Link } from '@tanstack/react-router';
import { LanguageSwitcher } from '@/components/LanguageSwitcher';
import { Logo } from '@/components/Logo';
import { ThemeToggle } from '@/components/ThemeToggle';
import { useLogout } from '@/features/auth/auth.mutations';
import { useTranslation } from '@/i18n/use-translation';
import { NavIcon } from './NavIcon';

interface SidebarProps {
  user: User;
  instance: string;
  navLogo: string | undefined;
  version: string | undefined;
  isOpen: boolean;
}

export function Sidebar({ user, instance, navLogo, version, isOpen }: SidebarProps) {
  const { t } = useTranslation();
  const logout = useLogout();
  const fullName = `${user.first_name} ${user.last_name}`.trim() || user.username;
  return (
    <aside id="sidebar" className={isOpen ? 'sidebar sidebar--open' : 'sidebar'}>
      <div className="sidebar__brand">
        <Logo size={32} src={navLogo || undefined} />
        <span>{instance}</span>
      </div>
      <nav aria-label={t('nav.main')} className="sidebar__nav">
        <ul>
          {user.is_admin ? (
            <>
              <li>
                <Link to="/overview" className="nav-link" activeProps={{ 'aria-current': 'page' }}>
                  <NavIcon name="overview" />
                  {t('nav.overview')}
                </Link>
              </li>
              <li>
                <Link
                  to="/users"
                  className="nav-link"
                  activeProps={{ 'aria-current': 'page' }}
                  activeOptions={{ exact: true, includeSearch: false }}
                >
                  <NavIcon name="users" />
                  {t('nav.users')}
                </Link>
              </li>
              <li>
                <Link to="/groups" className="nav-link" activeProps={{ 'aria-current': 'page' }}>
                  <NavIcon name="groups" />
                  {t('nav.groups')}
                </Link>
              </li>
              <li>
                <Link to="/locations" className="nav-link" activeProps={{ 'aria-current': 'page' }}>
                  <NavIcon name="locations" />
                  {t('nav.locations')}
                </Link>
              </li>
              <li>
                <Link to="/network-devices" className="nav-link" activeProps={{ 'aria-current': 'page' }}>
                  <NavIcon name="devices" />
                  {t('nav.networkDevices')}
                </Link>
              </li>
              <li>
                <Link to="/settings" className="nav-link" activeProps={{ 'aria-current': 'page' }}>
                  <NavIcon name="settings" />
                  {t('nav.settings')}
                </Link>
              </li>
            </>
          ) : null}
          <li>
            <Link to="/users/$username" params={{ username: user.username }} className="nav-link" activeProps={{ 'aria-current': 'page' }}>
              <NavIcon name="profile" />
              {t('nav.profile')}
            </Link>
          </li>
        </ul>
      </nav>
      <div className="sidebar__footer">
        <div className="sidebar__user">
          <span className="avatar" aria-hidden="true">
            {(user.first_name[0] ?? user.username[0] ?? '?').toUpperCase()}
          </span>
          <span className="sidebar__user-text">
            <span className="sidebar__user-name">{fullName}</span>
            <span className="sidebar__user-login">{user.username}</span>
          </span>
        </div>
        <div className="sidebar__tools">
          <LanguageSwitcher className="nav" />
          <ThemeToggle />
        </div>
        <button type="button" className="nav-link nav-link--button" onClick={() => logout.mutate()} disabled={logout.isPending}>
          <NavIcon name="logout" />
          {t('nav.logout')}
        </button>
        {version ? <p className="sidebar__version">{t('nav.version', { version })}</p> : null}
      </div>
    </aside>
  );
}
