import { useQuery } from '@tanstack/react-query';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Logo } from '@/components/Logo';
import { infoQueryOptions } from '@/features/app/app.queries';
import { ModuleDisabledPage } from '@/app/ModuleDisabledPage';
import { loginSearchFor } from '@/app/guards';
import { disabledModuleOf, useEssentials } from '@/features/app/modules';
import { meQueryOptions } from '@/features/auth/auth.queries';
import { useAuthStore } from '@/features/auth/auth-store';
import { enterpriseSettingsQueryOptions } from '@/features/enterprise/enterprise.queries';
import { UpdateNotice } from '@/features/updates/UpdateNotice';
import { useTranslation } from '@/i18n/use-translation';
import { Sidebar } from './Sidebar';
import './shell.css';

/** The signed-in frame: navigation plus the current screen. */
export function AppShell() {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const hasSessionEnded = useAuthStore((s) => s.hasSessionEnded);
  // Subscribed (not read once from the store), so saved branding and module switches show at once.
  const settings = useEssentials();
  const instance = settings?.instance_name || 'Palisade';
  const navLogo = settings?.nav_logo_url;
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const href = useRouterState({ select: (s) => s.location.href });
  const [isMenuOpen, setIsMenuOpen] = useState(false);

  // Refreshes the stored user on mount (spec §4); a failure resets the store, handled below.
  useQuery(meQueryOptions);
  const info = useQuery({ ...infoQueryOptions, enabled: user !== undefined });
  useQuery({ ...enterpriseSettingsQueryOptions, enabled: user !== undefined });

  // The session ended under the user (not a logout): the login page says so and leads back here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the loss of the user matters, not later moves
  useEffect(() => {
    if (!user) void navigate({ to: '/login', search: hasSessionEnded ? loginSearchFor(href) : {} });
  }, [user, navigate]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the drawer whenever the route changes
  useEffect(() => setIsMenuOpen(false), [pathname]);

  if (!user) return null;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        <button
          type="button"
          className="icon-btn"
          aria-expanded={isMenuOpen}
          aria-controls="sidebar"
          aria-label={isMenuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
          onClick={() => setIsMenuOpen((o) => !o)}
        >
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <span className="topbar__brand">
          <Logo size={28} src={navLogo || undefined} />
          {instance}
        </span>
      </header>
      <Sidebar user={user} instance={instance} navLogo={navLogo} version={info.data?.version} isOpen={isMenuOpen} />
      {isMenuOpen ? <div className="shell__scrim" onClick={() => setIsMenuOpen(false)} aria-hidden="true" /> : null}
      <main id="main" className="shell__main" tabIndex={-1}>
        {disabledModuleOf(settings, pathname) ? <ModuleDisabledPage /> : <Outlet />}
      </main>
      <UpdateNotice isAdmin={user.is_admin} />
    </div>
  );
}
