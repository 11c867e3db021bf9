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
  locationName: string;
}

/** One location's WireGuard config: text, QR code, download and copy. */
export function ConfigPanel({ config, deviceName, locationName }: ConfigPanelProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const fileName = configFileName(deviceName, locationName);
  const isPlaceholder = hasPlaceholderKey(config);
  return (
    <div className="config-panel">
      <div className="config-panel__qr">
        <QrCode text={config} label={t('devices.config.qr', { location: locationName })} />
        {isPlaceholder ? <p className="field__hint">{t('devices.config.placeholderNote')}</p> : null}
      </div>
      <div className="config-panel__text">
        <pre className="config-text" title={t('devices.config.text', { location: locationName })}>
          {config}
        </pre>
        <div className="config-panel__actions">
          <Button variant="primary" onClick={() => downloadText(fileName, config)}>
            {t('devices.config.download')}
          </Button>
          <Button onClick={() => void copy(config)}>{t('devices.config.copy')}</Button>
        </div>
      </div>
    </div>
  );
}
