import type { DeviceConfig } from '@palisade/contracts';
import { Button } from '@/components/Button';
import { useDevicePermissions } from '@/features/enterprise/device-permissions';
import { useTranslation } from '@/i18n/use-translation';
import { ConfigPanel } from './ConfigPanel';
import { withPrivateKey } from './config-text';

interface DeviceConfigsStepProps {
  deviceName: string;
  configs: readonly DeviceConfig[];
  /** Only when the keys were generated here; it is never sent anywhere. */
  privateKey: string | undefined;
  onFinish: () => void;
}

/** Wizard step 2: one config per location, with the private key filled in locally (else templates). */
export function DeviceConfigsStep({ deviceName, configs, privateKey, onFinish }: DeviceConfigsStepProps) {
  const { t } = useTranslation();
  const { canViewConfig } = useDevicePermissions();
  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('addDevice.configsTitle', { name: deviceName })}</h2>
      </div>
      <div className="card__body">
        {!canViewConfig ? (
          <p className="banner banner--info config-step__note">{t('devices.config.disabled')}</p>
        ) : privateKey ? (
          <p className="banner banner--warning config-step__note" role="alert">
            {t('addDevice.privateKeyWarning')}
          </p>
        ) : null}
        {configs.length === 0 ? <p className="muted">{t('addDevice.noLocations')}</p> : null}
        {configs
          .filter((c): c is DeviceConfig & { config: string } => canViewConfig && c.config !== undefined)
          .map((c) => (
            <section key={c.network_id} className="config-section" aria-label={c.network_name}>
              <h3 className="config-section__title">
                {c.network_name} <span className="muted">· {c.assigned_ips.join(', ')}</span>
              </h3>
              <ConfigPanel
                config={privateKey ? withPrivateKey(c.config, privateKey) : c.config}
                deviceName={deviceName}
                location={{ id: c.network_id, name: c.network_name }}
              />
            </section>
          ))}
      </div>
      <div className="form-actions card__body">
        <Button variant="primary" onClick={onFinish}>
          {t('addDevice.finish')}
        </Button>
      </div>
    </div>
  );
}
