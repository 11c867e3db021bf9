import type { Gateway } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { DeleteGatewayDialog } from './DeleteGatewayDialog';
import { GatewaysStatusBadge } from './GatewaysStatusBadge';
import { GatewaysTable } from './GatewaysTable';
import { checkOf, summarize } from './gateway-status';
import { GATEWAY_STATUS_INTERVAL_MS, locationGatewaysQueryOptions } from './gateways.queries';
import '@/features/users/users.css';
import './gateways.css';

/**
 * One location's gateways (spec §4): the coloured summary, the list and delete, kept live by
 * polling (gateways.queries.ts). The overview shows the link to the setup page here, next to the
 * status it explains; the setup page itself (`isSetupPage`) says it is waiting for the agent instead.
 */
export function GatewaysPanel({ locationId, isSetupPage = false }: { locationId: number; isSetupPage?: boolean }) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState<Gateway | undefined>(undefined);
  const query = useQuery(locationGatewaysQueryOptions(locationId));

  return (
    <section className="card gateways-panel" aria-labelledby={`gateways-${locationId}`}>
      <div className="card__header">
        <div className="gateways-panel__heading">
          <h2 id={`gateways-${locationId}`} className="card__title">
            {t('gateways.title')}
          </h2>
          <span aria-live="polite" data-testid="gateways-status">
            <GatewaysStatusBadge status={checkOf(query, summarize)} />
          </span>
        </div>
        {isSetupPage ? null : (
          <Link to="/locations/$id/gateway" params={{ id: String(locationId) }} className="btn btn--sm btn--ghost">
            {t('gateways.setupLink')}
          </Link>
        )}
      </div>
      {query.isPending ? (
        <StateMessage kind="loading" title={t('gateways.checking')} />
      ) : query.isError ? (
        <StateMessage
          kind="error"
          title={t('error.gateways.status')}
          hint={problemMessage(t, query.error)}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <StateMessage kind="empty" title={t('gateways.empty')} hint={isSetupPage ? t('gateways.waiting') : undefined} />
      ) : (
        <GatewaysTable gateways={query.data} onDelete={setDeleting} />
      )}
      <p className="card__body field__hint gateways-panel__hint">{t('gateways.liveHint', { count: GATEWAY_STATUS_INTERVAL_MS / 1000 })}</p>
      {deleting ? <DeleteGatewayDialog gateway={deleting} onClose={() => setDeleting(undefined)} /> : null}
    </section>
  );
}
