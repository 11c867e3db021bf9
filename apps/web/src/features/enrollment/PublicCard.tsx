import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from '@/components/LanguageSwitcher';
import { Logo } from '@/components/Logo';
import { ThemeToggle } from '@/components/ThemeToggle';
import { essentialsQueryOptions } from '@/features/app/app.queries';
import '@/features/auth/auth.css';
import './enrollment.css';

/** The signed-out pages' frame (as the login page): language and theme, the instance's brand, one card. */
export function PublicCard({ children, isWide = false }: { children: ReactNode; isWide?: boolean }) {
  const { data: settings } = useQuery(essentialsQueryOptions);
  const instance = settings?.instance_name || 'Palisade';
  return (
    <div className="auth-page">
      <div className="auth-page__tools">
        <LanguageSwitcher className="login" />
        <ThemeToggle />
      </div>
      <main className={isWide ? 'auth-card auth-card--wide' : 'auth-card'} id="main">
        <div className="auth-card__brand">
          <Logo size={44} src={settings?.main_logo_url || undefined} alt={instance} />
          <span className="auth-card__instance">{instance}</span>
        </div>
        {children}
      </main>
    </div>
  );
}
