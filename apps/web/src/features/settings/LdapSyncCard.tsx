import type { LdapSyncResult } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { lastLdapSyncQueryOptions, useLdapSync } from './LdapSyncCard.queries';
import { LdapSyncPreview } from './LdapSyncPreview';

const count = (details: Record<string, unknown>, key: string) => String(typeof details[key] === 'number' ? details[key] : 0);

/** Settings › LDAP › Sync: run a sync now, preview what it would change, and the last run's result. */
export function LdapSyncCard() {
  const { t } = useTranslation();
  const last = useQuery(lastLdapSyncQueryOptions);
  const sync = useLdapSync();
  const [preview, setPreview] = useState<LdapSyncResult | undefined>();
  const lastRun = last.data?.items[0];

  const start = (dryRun: boolean) =>
    sync.mutate(dryRun, {
      onSuccess: (result) => {
        if (result.dry_run) setPreview(result);
        else
          pushToast({
            id: 'ldap-sync-done',
            kind: result.failed?.length ? 'warning' : 'success',
            message: t('ldapSync.done', { applied: String(result.applied ?? 0), failed: String(result.failed?.length ?? 0) }),
          });
      },
      onError: (error) => pushToast({ id: 'ldap-sync-error', kind: 'error', message: problemMessage(t, error) }),
    });

  return (
    <section className="card" aria-labelledby="ldap-sync-title">
      <div className="card__header">
        <h2 id="ldap-sync-title" className="card__title">
          {t('ldapSync.title')}
        </h2>
      </div>
      <div className="card__body">
        <p className="field__hint">{t('ldapSync.hint')}</p>
        <p data-testid="ldap-sync-last">
          {lastRun
            ? t('ldapSync.lastRun', {
                date: new Date(lastRun.timestamp).toLocaleString(),
                applied: count(lastRun.details, 'applied'),
                failed: count(lastRun.details, 'failed'),
                skipped: count(lastRun.details, 'skipped'),
              })
            : last.isSuccess
              ? t('ldapSync.never')
              : null}
        </p>
        <div className="form-actions">
          <Button onClick={() => start(true)} isLoading={sync.isPending && sync.variables === true} disabled={sync.isPending}>
            {t('ldapSync.preview')}
          </Button>
          <Button
            variant="primary"
            onClick={() => start(false)}
            isLoading={sync.isPending && sync.variables === false}
            disabled={sync.isPending}
          >
            {t('ldapSync.run')}
          </Button>
        </div>
      </div>
      {preview ? <LdapSyncPreview result={preview} onClose={() => setPreview(undefined)} /> : null}
    </section>
  );
}
