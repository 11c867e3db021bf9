import type { MfaRequired } from '@palisade/contracts';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Loader } from '@/components/Loader';
import { Logo } from '@/components/Logo';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { isMfaRequired } from './auth.mutations';
import { useExternalCallbackMutation } from './external-login';
import { MfaStep } from './MfaStep';
import './auth.css';

export interface ExternalCallbackSearch {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  error_description?: string;
}

/**
 * Where the identity provider sends the browser back (spec §2): completes the sign-in once, then
 * lands like a password login (or on the second step when the user has MFA). Any failure shows
 * the callback error view with a link back to login.
 */
export function ExternalCallbackPage({ search }: { search: ExternalCallbackSearch }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const callback = useExternalCallbackMutation();
  const [mfa, setMfa] = useState<MfaRequired['mfa'] | undefined>(undefined);
  const sent = useRef(false);
  const { code, state, iss } = search;
  const providerError = search.error !== undefined || !code || !state;

  useEffect(() => {
    if (sent.current || providerError || !code || !state) return;
    sent.current = true;
    callback.mutate(
      { code, state, ...(iss ? { iss } : {}) },
      {
        onSuccess: (result) => {
          if (isMfaRequired(result)) setMfa(result.mfa);
          else if (result.url) window.location.assign(result.url);
          else void navigate({ to: '/auth/redirect', replace: true });
        },
      },
    );
  }, [callback, code, state, iss, providerError, navigate]);

  return (
    <div className="auth-page">
      <main className="auth-card" id="main">
        <div className="auth-card__brand">
          <Logo size={44} />
        </div>
        {mfa ? (
          <MfaStep mfa={mfa} onBack={() => void navigate({ to: '/login' })} />
        ) : providerError || callback.isError ? (
          <div className="auth-form" role="alert">
            <h1 className="auth-form__title">{t('login.external.errorTitle')}</h1>
            <p className="auth-form__subtitle">
              {callback.isError ? problemMessage(t, callback.error) : (search.error_description ?? search.error ?? '')}
            </p>
            <Link to="/login" className="btn btn--primary btn--block">
              {t('login.external.backToLogin')}
            </Link>
          </div>
        ) : (
          <div className="redirect-page">
            <Loader size={40} />
            <p>{t('login.external.signingIn')}</p>
          </div>
        )}
      </main>
    </div>
  );
}
