import type { AuthorizedApp } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { authorizedAppsQueryOptions, useRevokeAuthorizedApp } from './authorized-apps.queries';
import './authorized-apps.css';

/** The profile's "Authorized apps": the OpenID apps the user let sign them in, each revocable. */
export function AuthorizedAppsCard({ username }: { username: string }) {
  const { t, language } = useTranslation();
  const apps = useQuery(authorizedAppsQueryOptions(username));
  const revoke = useRevokeAuthorizedApp(username);
  const [revoking, setRevoking] = useState<AuthorizedApp | undefined>(undefined);

  let body: React.ReactNode;
  if (apps.isPending) body = <StateMessage kind="loading" title={t('common.loading')} />;
  else if (apps.isError) body = <StateMessage kind="error" title={problemMessage(t, apps.error)} onRetry={() => void apps.refetch()} />;
  else if (apps.data.length === 0) body = <p className="field__hint">{t('authorizedApps.empty')}</p>;
  else
    body = (
      <ul className="authorized-apps" aria-label={t('authorizedApps.title')}>
        {apps.data.map((app) => (
          <li key={app.client_id} className="authorized-apps__item">
            <div className="authorized-apps__text">
              <span className="authorized-apps__name">{app.name}</span>
              <span className="field__hint">
                {t('authorizedApps.details', { scopes: app.scopes.join(', '), date: formatDateTime(language, app.authorized_at) })}
              </span>
            </div>
            <Button
              size="sm"
              variant="danger"
              onClick={() => setRevoking(app)}
              aria-label={t('authorizedApps.revokeNamed', { app: app.name })}
            >
              {t('authorizedApps.revoke')}
            </Button>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('authorizedApps.title')}</h2>
      </div>
      <div className="card__body">{body}</div>
      <ConfirmDialog
        title={t('authorizedApps.revokeTitle')}
        isOpen={revoking !== undefined}
        onCancel={() => {
          setRevoking(undefined);
          revoke.reset();
        }}
        onConfirm={() => {
          if (!revoking) return;
          const { name } = revoking;
          revoke.mutate(revoking.client_id, {
            onSuccess: () => {
              setRevoking(undefined);
              pushToast({ id: 'authorized-app-revoked', kind: 'success', message: t('authorizedApps.revoked', { app: name }) });
            },
          });
        }}
        confirmLabel={t('authorizedApps.revoke')}
        isDanger
        isPending={revoke.isPending}
      >
        <p>{t('authorizedApps.revokeText', { app: revoking?.name ?? '' })}</p>
        {revoke.isError ? <p className="banner banner--error">{problemMessage(t, revoke.error)}</p> : null}
      </ConfirmDialog>
    </div>
  );
}
