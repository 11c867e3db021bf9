import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isSafeReturnPath } from '@/app/guards';
import { Loader } from '@/components/Loader';
import { useTranslation } from '@/i18n/use-translation';
import { useAuthStore } from './auth-store';

/** After login: go to the page the visitor first asked for (authLocation), else home. */
export function RedirectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  useEffect(() => {
    const { user, authLocation, setAuthLocation } = useAuthStore.getState();
    setAuthLocation(undefined);
    if (!user) {
      void navigate({ to: '/login', replace: true });
      return;
    }
    if (isSafeReturnPath(authLocation)) void navigate({ href: authLocation, replace: true });
    else void navigate({ to: '/', replace: true });
  }, [navigate]);

  return (
    <main className="redirect-page" id="main">
      <Loader size={40} />
      <p>{t('redirect.title')}</p>
    </main>
  );
}
