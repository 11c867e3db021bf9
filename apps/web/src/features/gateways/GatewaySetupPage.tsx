import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { locationQueryOptions } from '@/features/locations/locations.queries';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { AgentInstallCard } from './AgentInstallCard';
import { GatewaysPanel } from './GatewaysPanel';
import { gatewayTokenQueryOptions } from './gateways.queries';
import { TokenCard } from './TokenCard';
import './gateways.css';

/** Spec §2 Gateway setup instructions: the token and URL, where the agent comes from and how to run it, then its live status. */
export function GatewaySetupPage() {
  const { t } = useTranslation();
  const id = Number(useParams({ from: '/_authed/_admin/locations/$id_/gateway' }).id);
  const location = useQuery(locationQueryOptions(id));
  const token = useQuery(gatewayTokenQueryOptions(id));
  const name = location.data?.name ?? '';

  return (
    <section aria-labelledby="gateway-setup-title" className="gateway-setup">
      <header className="page-header">
        <div>
          <Link to="/locations/$id" params={{ id: String(id) }} className="btn btn--link">
            ← {name ? t('gateways.backTo', { name }) : t('locations.back')}
          </Link>
          <h1 id="gateway-setup-title" className="page-header__title">
            {name ? t('gateways.setupTitle', { name }) : t('gateways.setupTitlePlain')}
          </h1>
        </div>
      </header>
      <p className="gateway-setup__intro">{t('gateways.setupIntro')}</p>
      {token.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : token.isError ? (
        <StateMessage
          kind="error"
          title={t('gateways.token.loadError')}
          hint={problemMessage(t, token.error)}
          onRetry={() => void token.refetch()}
        />
      ) : (
        <>
          <TokenCard locationId={id} token={token.data} />
          <AgentInstallCard token={token.data} />
        </>
      )}
      <GatewaysPanel locationId={id} isSetupPage />
    </section>
  );
}
