import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { locationQueryOptions } from '@/features/locations/locations.queries';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { CommandBlock } from './CommandBlock';
import { GatewaysPanel } from './GatewaysPanel';
import { gatewayTokenQueryOptions } from './gateways.queries';
import { GATEWAY_ENV_FILE, GATEWAY_UNIT, dockerRunCommand, systemdCommands } from './setup-commands';
import { TokenCard } from './TokenCard';
import './gateways.css';

/** Spec §2 Gateway setup instructions: the token, then the two ways to run the agent, then who is connected. */
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
          <div className="card">
            <div className="card__header">
              <h2 className="card__title">{t('gateways.run.title')}</h2>
            </div>
            <div className="card__body gateway-setup__commands">
              <CommandBlock
                title={t('gateways.run.docker')}
                hint={t('gateways.run.dockerHint')}
                text={dockerRunCommand({ grpcUrl: token.data.grpc_url, token: token.data.token })}
                copyLabel={t('gateways.run.copyDocker')}
              />
              <CommandBlock
                title={t('gateways.run.systemd')}
                hint={t('gateways.run.systemdHint', { unit: GATEWAY_UNIT, file: GATEWAY_ENV_FILE })}
                text={systemdCommands({ grpcUrl: token.data.grpc_url, token: token.data.token })}
                copyLabel={t('gateways.run.copySystemd')}
              />
              <p className="field__hint">{t('gateways.run.variables')}</p>
            </div>
          </div>
        </>
      )}
      <GatewaysPanel locationId={id} hasSetupLink={false} />
    </section>
  );
}
