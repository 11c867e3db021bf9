import { useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { AddNetworkDeviceDialog } from './AddNetworkDeviceDialog';
import { CliTokenDialog } from './CliTokenDialog';
import { EditNetworkDeviceDialog } from './EditNetworkDeviceDialog';
import { CreatedConfigDialog, type CreatedNetworkDevice, NetworkDeviceConfigDialog } from './NetworkDeviceConfigDialog';
import type { PageDialog } from './NetworkDevicesPage';
import { type CliToken, useDeleteNetworkDevice, useStartCli } from './network-devices.mutations';

type Follow = { kind: 'token'; token: CliToken } | { kind: 'created'; created: CreatedNetworkDevice } | undefined;

/** The page's dialogs: add, edit, config, delete and the one-time CLI token. */
export function NetworkDeviceDialogs({ dialog, onClose }: { dialog: PageDialog; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteNetworkDevice();
  const startCli = useStartCli();
  const [follow, setFollow] = useState<Follow>(undefined);

  const generateToken = () => {
    if (dialog?.kind !== 'token') return;
    startCli.mutate(
      { id: dialog.device.id },
      {
        onSuccess: (token) => {
          onClose();
          setFollow({ kind: 'token', token });
        },
        onError: () => pushToast({ id: 'token-error', kind: 'error', message: t('error.token.generation_failed') }),
      },
    );
  };

  const confirmDelete = () => {
    if (dialog?.kind !== 'delete') return;
    const { device } = dialog;
    remove.mutate(device.id, {
      onSuccess: () => {
        pushToast({
          id: `network-device-deleted-${device.id}`,
          kind: 'success',
          message: t('devices.toast.deleted', { name: device.name }),
        });
        onClose();
      },
      onError: (error) => pushToast({ id: 'network-device-delete-error', kind: 'error', message: problemMessage(t, error) }),
    });
  };

  return (
    <>
      {dialog?.kind === 'add' ? (
        <AddNetworkDeviceDialog
          onClose={onClose}
          onCreated={(created) => {
            onClose();
            setFollow({ kind: 'created', created });
          }}
          onToken={(token) => {
            onClose();
            setFollow({ kind: 'token', token });
          }}
        />
      ) : null}
      {dialog?.kind === 'edit' ? <EditNetworkDeviceDialog device={dialog.device} onClose={onClose} /> : null}
      {dialog?.kind === 'config' ? <NetworkDeviceConfigDialog device={dialog.device} onClose={onClose} /> : null}
      <ConfirmDialog
        title={t('networkDevices.delete.title')}
        isOpen={dialog?.kind === 'delete'}
        onCancel={onClose}
        onConfirm={confirmDelete}
        confirmLabel={t('common.delete')}
        isDanger
        isPending={remove.isPending}
      >
        <p>
          {t('networkDevices.delete.message', {
            name: dialog?.kind === 'delete' ? dialog.device.name : '',
            location: dialog?.kind === 'delete' ? dialog.device.location_name : '',
          })}
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        title={t('networkDevices.generateToken')}
        isOpen={dialog?.kind === 'token'}
        onCancel={onClose}
        onConfirm={generateToken}
        confirmLabel={t('networkDevices.generateToken')}
        isPending={startCli.isPending}
      >
        <p>{t('networkDevices.tokenConfirm', { name: dialog?.kind === 'token' ? dialog.device.name : '' })}</p>
      </ConfirmDialog>
      {follow?.kind === 'token' ? <CliTokenDialog token={follow.token} onClose={() => setFollow(undefined)} /> : null}
      {follow?.kind === 'created' ? <CreatedConfigDialog created={follow.created} onClose={() => setFollow(undefined)} /> : null}
    </>
  );
}
