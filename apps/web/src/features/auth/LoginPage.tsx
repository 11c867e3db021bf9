import type { MfaRequired } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { LanguageSwitcher } from '@/components/LanguageSwitcher';
import { Logo } from '@/components/Logo';
import { ThemeToggle } from '@/components/ThemeToggle';
import { essentialsQueryOptions } from '@/features/app/app.queries';
import { useTranslation } from '@/i18n/use-translation';
import { useAuthStore } from './auth-store';
import { ExternalLoginButton } from './ExternalLoginButton';
import { LoginForm } from './LoginForm';
import { MfaStep } from './MfaStep';
import './auth.css';

const route = getRouteApi('/login');

export function LoginPage() {
  const { t } = useTranslation();
  const { data: settings } = useQuery(essentialsQueryOptions);
  const search = route.useSearch();
  const [mfa, setMfa] = useState<MfaRequired['mfa'] | undefined>(undefined);
  const instance = settings?.instance_name || 'Palisade';

  // After sign-in, the redirect page returns to the page named here (see RedirectPage).
  useEffect(() => {
    if (search.redirect) useAuthStore.getState().setAuthLocation(search.redirect);
  }, [search.redirect]);

  return (
    <div className="auth-page">
      <div className="auth-page__tools">
        <LanguageSwitcher className="login" />
        <ThemeToggle />
      </div>
      <main className="auth-card" id="main">
        <div className="auth-card__brand">
          <Logo size={44} src={settings?.main_logo_url || undefined} alt={instance} />
          <span className="auth-card__instance">{instance}</span>
        </div>
        {search.session === 'ended' && !mfa ? (
          <p className="banner banner--info" role="status">
            {t('login.sessionEnded')}
          </p>
        ) : null}
        {mfa ? (
          <MfaStep mfa={mfa} onBack={() => setMfa(undefined)} />
        ) : (
          <>
            <LoginForm instance={instance} onMfaRequired={setMfa} />
            <ExternalLoginButton />
          </>
        )}
      </main>
    </div>
  );
}
