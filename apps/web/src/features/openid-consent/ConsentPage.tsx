import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { LanguageSwitcher } from '@/components/LanguageSwitcher';
import { Logo } from '@/components/Logo';
import { StateMessage } from '@/components/StateMessage';
import { ThemeToggle } from '@/components/ThemeToggle';
import { essentialsQueryOptions } from '@/features/app/app.queries';
import { useAuthStore } from '@/features/auth/auth-store';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { consentRequestQueryOptions, useConsentDecision } from './openid-consent.queries';
import '@/features/auth/auth.css';
import './openid-consent.css';

const route = getRouteApi('/consent');

/** The scopes the console can describe; anything else is listed by its name. */
const SCOPE_KEYS: Record<string, MessageKey> = {
  openid: 'consent.scope.openid',
  profile: 'consent.scope.profile',
  email: 'consent.scope.email',
  phone: 'consent.scope.phone',
  groups: 'consent.scope.groups',
};

/**
 * The OpenID consent page (docs/openid.md, "Sign-in and consent"): asks the API what the waiting
 * authorization wants; signs in first when the browser has no console session (the sign-in answer
 * sends the browser back here); Accept / Cancel hand the browser to the provider's resume URL.
 */
export function ConsentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { interaction = '' } = route.useSearch();
  const { data: settings } = useQuery(essentialsQueryOptions);
  const request = useQuery({ ...consentRequestQueryOptions(interaction), enabled: interaction !== '' });
  const decision = useConsentDecision(interaction);
  const instance = settings?.instance_name || 'Palisade';
  const loginRequired = request.data?.login_required === true;

  useEffect(() => {
    if (!loginRequired) return;
    // The console session is gone (or never was): the stored user is stale.
    useAuthStore.getState().reset();
    void navigate({ to: '/login', replace: true });
  }, [loginRequired, navigate]);

  const notFound = interaction === '' || hasCode(request.error, 'openid.interaction_not_found');
  let body: React.ReactNode;
  if (notFound) {
    body = (
      <div className="consent__gone" role="alert">
        <h1 className="auth-form__title">{t('consent.gone.title')}</h1>
        <p className="auth-form__subtitle">{t('consent.gone.hint')}</p>
        <Link to="/" className="btn btn--secondary btn--block">
          {t('consent.gone.back')}
        </Link>
      </div>
    );
  } else if (request.isError) {
    body = <StateMessage kind="error" title={problemMessage(t, request.error)} onRetry={() => void request.refetch()} />;
  } else if (!request.data || loginRequired) {
    body = <StateMessage kind="loading" title={t('consent.loading')} />;
  } else {
    const { client, scopes } = request.data;
    body = (
      <div className="consent">
        <h1 className="auth-form__title">{t('consent.title', { app: client.name })}</h1>
        <p className="auth-form__subtitle">{t('consent.subtitle', { app: client.name, instance })}</p>
        <ul className="consent__scopes" aria-label={t('consent.scopesLabel')}>
          {scopes.map((scope) => (
            <li key={scope} className="consent__scope">
              <span className="consent__scope-name">{scope}</span>
              <span className="consent__scope-hint">{SCOPE_KEYS[scope] ? t(SCOPE_KEYS[scope]) : scope}</span>
            </li>
          ))}
        </ul>
        <FormErrorBanner error={decision.error}>
          {hasCode(decision.error, 'openid.interaction_not_found') ? t('consent.gone.title') : null}
        </FormErrorBanner>
        <div className="consent__actions">
          <Button onClick={() => decision.mutate(false)} disabled={decision.isPending}>
            {t('consent.cancel')}
          </Button>
          <Button
            variant="primary"
            onClick={() => decision.mutate(true)}
            isLoading={decision.isPending && decision.variables === true}
            disabled={decision.isPending}
          >
            {t('consent.accept')}
          </Button>
        </div>
      </div>
    );
  }

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
        {body}
      </main>
    </div>
  );
}
