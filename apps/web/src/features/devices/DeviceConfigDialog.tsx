import type { Device } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { ConfigPanel } from './ConfigPanel';
import { deviceConfigQueryOptions } from './devices.queries';

/** "Show config": the server's config template (its private key is a placeholder) for one location at a time. */
export function DeviceConfigDialog({ device, onClose }: { device: Device; onClose: () => void }) {
  const { t } = useTranslation();
  const networks = device.networks ?? [];
  const [networkId, setNetworkId] = useState(networks[0]?.network_id ?? 0);
  const network = networks.find((n) => n.network_id === networkId);
  const config = useQuery({ ...deviceConfigQueryOptions(networkId, device.id), enabled: networkId > 0 });
  return (
    <Dialog title={t('devices.configTitle', { name: device.name })} isOpen onClose={onClose} size="lg">
      {networks.length > 1 ? (
        <SelectField
          label={t('devices.location')}
          value={String(networkId)}
          options={networks.map((n) => ({ value: String(n.network_id), label: n.network_name }))}
          onValueChange={(v) => setNetworkId(Number(v))}
        />
      ) : null}
      {config.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : config.isError ? (
        <StateMessage kind="error" title={t('error.deviceConfig')} onRetry={() => void config.refetch()} />
      ) : (
        <ConfigPanel config={config.data} deviceName={device.name} location={{ id: networkId, name: network?.network_name ?? '' }} />
      )}
    </Dialog>
  );
}
