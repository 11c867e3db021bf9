import { Button } from '@/components/Button';
import { useTranslation } from '@/i18n/use-translation';
import { downloadText } from '@/lib/download';
import { useCopy } from '@/lib/use-copy';
import { configFileName, hasPlaceholderKey } from './config-text';
import { QrCode } from './QrCode';
import './devices.css';

interface ConfigPanelProps {
  config: string;
  deviceName: string;
  location: { id: number; name: string };
}

/**
 * One location's WireGuard config: text, download and copy, and a QR code only when the config
 * carries the real private key. A config with the placeholder is a template: scanning it would
 * give a phone a tunnel that cannot connect, so it is labelled as such and has no QR code.
 */
export function ConfigPanel({ config, deviceName, location }: ConfigPanelProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const fileName = configFileName(deviceName, location);
  const isTemplate = hasPlaceholderKey(config);
  return (
    <div className="config-panel-wrap">
      {isTemplate ? (
        <p className="banner banner--info" role="note">
          <strong>{t('devices.config.templateTitle')}.</strong> {t('devices.config.placeholderNote')}
        </p>
      ) : null}
      <div className={isTemplate ? 'config-panel config-panel--text-only' : 'config-panel'}>
        {isTemplate ? null : (
          <div className="config-panel__qr">
            <QrCode text={config} label={t('devices.config.qr', { location: location.name })} />
          </div>
        )}
        <div className="config-panel__text">
          <pre className="config-text" title={t('devices.config.text', { location: location.name })}>
            {config}
          </pre>
          <div className="config-panel__actions">
            <Button variant="primary" onClick={() => downloadText(fileName, config)}>
              {isTemplate ? t('devices.config.downloadTemplate') : t('devices.config.download')}
            </Button>
            <Button onClick={() => void copy(config)}>{isTemplate ? t('devices.config.copyTemplate') : t('devices.config.copy')}</Button>
          </div>
        </div>
      </div>
    </div>
  );
}
