import type { NetworkDevice } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { StateMessage } from '@/components/StateMessage';
import { ConfigPanel } from '@/features/devices/ConfigPanel';
import { hasPlaceholderKey } from '@/features/devices/config-text';
import { useTranslation } from '@/i18n/use-translation';
import { networkDeviceConfigQueryOptions } from './network-devices.queries';

/** A network device's config template from the server (the private key is a placeholder there). */
export function NetworkDeviceConfigDialog({ device, onClose }: { device: NetworkDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const config = useQuery(networkDeviceConfigQueryOptions(device.id));
  return (
    <Dialog title={t('devices.configTitle', { name: device.name })} isOpen onClose={onClose} size="lg">
      {config.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : config.isError ? (
        <StateMessage kind="error" title={t('error.deviceConfig')} onRetry={() => void config.refetch()} />
      ) : (
        <ConfigPanel config={config.data} deviceName={device.name} location={{ id: device.location_id, name: device.location_name }} />
      )}
    </Dialog>
  );
}

export interface CreatedNetworkDevice {
  name: string;
  location: { id: number; name: string };
  config: string;
}

/**
 * Right after creation: the config, with the private key generated here when it was (shown once,
 * so closing other than with "I have saved it" asks first), else the template.
 */
export function CreatedConfigDialog({ created, onClose }: { created: CreatedNetworkDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const hasSecret = !hasPlaceholderKey(created.config);
  return (
    <Dialog
      title={t('networkDevices.createdTitle', { name: created.name })}
      isOpen
      onClose={onClose}
      size="lg"
      confirmClose={hasSecret ? t('secret.privateKeyCloseWarning') : undefined}
      footer={<Button onClick={onClose}>{hasSecret ? t('secret.savedClose') : t('common.close')}</Button>}
    >
      {hasSecret ? (
        <p className="banner banner--warning config-step__note" role="alert">
          {t('addDevice.privateKeyWarning')}
        </p>
      ) : null}
      <ConfigPanel config={created.config} deviceName={created.name} location={created.location} />
    </Dialog>
  );
}
