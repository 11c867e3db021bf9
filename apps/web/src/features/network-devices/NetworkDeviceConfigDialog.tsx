import type { NetworkDevice } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Dialog } from '@/components/Dialog';
import { StateMessage } from '@/components/StateMessage';
import { ConfigPanel } from '@/features/devices/ConfigPanel';
import { useTranslation } from '@/i18n/use-translation';
import { networkDeviceConfigQueryOptions } from './network-devices.queries';

/** A network device's config from the server (the private key is a placeholder there). */
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
        <ConfigPanel config={config.data} deviceName={device.name} locationName={device.location_name} />
      )}
    </Dialog>
  );
}

/** Right after creation: the config with the locally generated private key, shown once. */
export function CreatedConfigDialog({
  name,
  locationName,
  config,
  onClose,
}: {
  name: string;
  locationName: string;
  config: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('networkDevices.createdTitle', { name })} isOpen onClose={onClose} size="lg">
      <p className="banner banner--warning config-step__note" role="alert">
        {t('addDevice.privateKeyWarning')}
      </p>
      <ConfigPanel config={config} deviceName={name} locationName={locationName} />
    </Dialog>
  );
}
