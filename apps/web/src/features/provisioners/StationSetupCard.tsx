import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';
import { stationCommand } from './provisioner-filter';
import { workerTokenQueryOptions } from './provisioners.queries';

/** Spec §2 station setup: the registration token and the container command (docs/provisioning.md). */
export function StationSetupCard() {
  const { t } = useTranslation();
  const copy = useCopy();
  const token = useQuery(workerTokenQueryOptions);
  const command = token.data ? stationCommand(window.location.origin, token.data) : '';
  return (
    <section className="card" aria-labelledby="station-setup-title">
      <div className="card__header">
        <h2 id="station-setup-title" className="card__title">
          {t('provisioners.setup.title')}
        </h2>
      </div>
      <p className="muted">{t('provisioners.setup.hint')}</p>
      {token.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : token.isError ? (
        <StateMessage kind="error" title={t('provisioners.setup.tokenError')} onRetry={() => void token.refetch()} />
      ) : (
        <>
          <div className="field">
            <span className="field__label">{t('provisioners.setup.token')}</span>
            <div className="provisioners-token">
              <code className="mono" data-testid="station-token">
                {token.data}
              </code>
              <Button size="sm" onClick={() => void copy(token.data)}>
                {t('provisioners.setup.copyToken')}
              </Button>
            </div>
          </div>
          <div className="field">
            <span className="field__label">{t('provisioners.setup.command')}</span>
            <pre className="provisioners-command mono">{command}</pre>
            <div>
              <Button size="sm" onClick={() => void copy(command)}>
                {t('provisioners.setup.copyCommand')}
              </Button>
            </div>
            <p className="muted">{t('provisioners.setup.commandHint')}</p>
          </div>
        </>
      )}
    </section>
  );
}
