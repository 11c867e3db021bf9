import type { User } from '@palisade/contracts';
import { LanguageSwitcher } from '@/components/LanguageSwitcher';
import { Logo } from '@/components/Logo';
import { ThemeToggle } from '@/components/ThemeToggle';
import { useEssentials } from '@/features/app/modules';
import { useLogout } from '@/features/auth/auth.mutations';
import { useTranslation } from '@/i18n/use-translation';
import { NavIcon } from './NavIcon';
import { SidebarNav } from './SidebarNav';

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
  const settings = useEssentials();
  const fullName = `${user.first_name} ${user.last_name}`.trim() || user.username;
  return (
    <aside id="sidebar" className={isOpen ? 'sidebar sidebar--open' : 'sidebar'}>
      <div className="sidebar__inner">
        <div className="sidebar__brand">
          <Logo size={32} src={navLogo || undefined} />
          <span>{instance}</span>
        </div>
        <SidebarNav user={user} settings={settings} />
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
      </div>
    </aside>
  );
}
