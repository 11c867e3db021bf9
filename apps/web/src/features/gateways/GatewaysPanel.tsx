import type { Gateway } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { DeleteGatewayDialog } from './DeleteGatewayDialog';
import { GatewaysStatusBadge } from './GatewaysStatusBadge';
import { GatewaysTable } from './GatewaysTable';
import { type GatewaysCheck, summarize } from './gateway-status';
import { locationGatewaysQueryOptions } from './gateways.queries';
import '@/features/users/users.css';
import './gateways.css';

/** One location's gateways (spec §4): nothing is asked until the admin checks, then status, list and delete. */
export function GatewaysPanel({ locationId, hasSetupLink = true }: { locationId: number; hasSetupLink?: boolean }) {
  const { t } = useTranslation();
  const [isRequested, setIsRequested] = useState(false);
  const [deleting, setDeleting] = useState<Gateway | undefined>(undefined);
  const query = useQuery(locationGatewaysQueryOptions(locationId, isRequested));
  const check = () => (isRequested ? void query.refetch() : setIsRequested(true));
  const status: GatewaysCheck | undefined = query.isError ? 'error' : query.data ? summarize(query.data) : undefined;
  const setupLink = hasSetupLink ? (
    <Link to="/locations/$id/gateway" params={{ id: String(locationId) }}>
      {t('gateways.setupLink')}
    </Link>
  ) : undefined;

  return (
    <section className="card gateways-panel" aria-labelledby={`gateways-${locationId}`}>
      <div className="card__header">
        <h2 id={`gateways-${locationId}`} className="card__title">
          {t('gateways.title')}
        </h2>
        <div className="gateways-panel__actions" aria-live="polite">
          {status ? <GatewaysStatusBadge status={status} /> : null}
          <Button size="sm" onClick={check} isLoading={query.isFetching}>
            {isRequested ? t('gateways.checkAgain') : t('gateways.check')}
          </Button>
        </div>
      </div>
      {!isRequested ? (
        <p className="card__body muted gateways-panel__hint">{t('gateways.checkHint')}</p>
      ) : query.isPending ? (
        <StateMessage kind="loading" title={t('gateways.checking')} />
      ) : query.isError ? (
        <StateMessage kind="error" title={t('error.gateways.status')} hint={problemMessage(t, query.error)} />
      ) : query.data.length === 0 ? (
        <StateMessage kind="empty" title={t('gateways.empty')} hint={setupLink} />
      ) : (
        <GatewaysTable gateways={query.data} onDelete={setDeleting} />
      )}
      {deleting ? <DeleteGatewayDialog gateway={deleting} onClose={() => setDeleting(undefined)} /> : null}
    </section>
  );
}
