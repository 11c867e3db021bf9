import type { GatewayToken } from '@palisade/contracts';
import { useId } from 'react';
import { useAppStore } from '@/features/app/app-store';
import { useTranslation } from '@/i18n/use-translation';
import { CommandBlock } from './CommandBlock';
import {
  dockerBuildCommand,
  dockerRunCommand,
  GATEWAY_ENV_FILE,
  GATEWAY_UNIT,
  systemdCommands,
  systemdInstallCommands,
} from './setup-commands';

/**
 * Spec §2 gateway setup: where the agent comes from (this repository; nothing is published) and
 * the two ways to install and start it, with this location's token and URL filled in.
 */
export function AgentInstallCard({ token }: { token: GatewayToken }) {
  const { t } = useTranslation();
  const version = useAppStore((s) => s.appInfo?.version);
  const values = { grpcUrl: token.grpc_url, token: token.token };
  const titleId = useId();
  const dockerId = useId();
  const systemdId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card__header">
        <h2 id={titleId} className="card__title">
          {t('gateways.run.title')}
        </h2>
      </div>
      <div className="card__body gateway-setup__commands">
        <p className="gateway-setup__source">
          {version ? t('gateways.install.source', { version }) : t('gateways.install.sourcePlain')} {t('gateways.install.host')}
        </p>
        <section className="gateway-setup__way" aria-labelledby={dockerId}>
          <h3 id={dockerId} className="gateway-setup__way-title">
            {t('gateways.run.docker')}
          </h3>
          <CommandBlock
            level={4}
            title={t('gateways.run.dockerBuild')}
            hint={t('gateways.run.dockerBuildHint')}
            text={dockerBuildCommand()}
            copyLabel={t('gateways.run.copyCommands')}
          />
          <CommandBlock
            level={4}
            title={t('gateways.run.dockerStart')}
            hint={t('gateways.run.dockerHint')}
            text={dockerRunCommand(values)}
            copyLabel={t('gateways.run.copyCommands')}
          />
        </section>
        <section className="gateway-setup__way" aria-labelledby={systemdId}>
          <h3 id={systemdId} className="gateway-setup__way-title">
            {t('gateways.run.systemd')}
          </h3>
          <CommandBlock
            level={4}
            title={t('gateways.run.systemdInstall')}
            hint={t('gateways.run.systemdInstallHint')}
            text={systemdInstallCommands()}
            copyLabel={t('gateways.run.copyCommands')}
          />
          <CommandBlock
            level={4}
            title={t('gateways.run.systemdStart')}
            hint={t('gateways.run.systemdHint', { unit: GATEWAY_UNIT, file: GATEWAY_ENV_FILE })}
            text={systemdCommands(values)}
            copyLabel={t('gateways.run.copyCommands')}
          />
        </section>
        <p className="field__hint">{t('gateways.run.variables')}</p>
        <p className="field__hint">{t('gateways.install.readme')}</p>
      </div>
    </section>
  );
}
