import { useState } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { useTranslation } from '@/i18n/use-translation';
import { useEssentials } from '@/features/app/modules';
import { fetchExternalAuthInfo } from './external-login';

/**
 * Spec §2 Login: sign in with the company's identity provider. Shown only when a provider is
 * configured (`external_login_button` of the public essentials); the text is the provider's display
 * name, or a generic one when that is blank. A click asks for a fresh authorization URL (the pending
 * sign-in lives 10 minutes) and goes there.
 */
export function ExternalLoginButton() {
  const { t } = useTranslation();
  const buttonText = useEssentials()?.external_login_button;
  const [isStarting, setStarting] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  if (buttonText === null || buttonText === undefined) return null;
  const start = async () => {
    setStarting(true);
    setError(undefined);
    try {
      window.location.assign((await fetchExternalAuthInfo()).url);
    } catch (err) {
      setError(err);
      setStarting(false);
    }
  };
  return (
    <div className="auth-external">
      <div className="auth-external__divider" aria-hidden="true">
        <span>{t('login.external.or')}</span>
      </div>
      <FormErrorBanner error={error} />
      <Button className="btn--block" onClick={() => void start()} isLoading={isStarting}>
        {buttonText.trim() || t('login.external.button')}
      </Button>
    </div>
  );
}
