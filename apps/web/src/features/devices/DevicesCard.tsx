import type { Device } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { meQueryOptions } from '@/features/auth/auth.queries';
import { useDevicePermissions } from '@/features/enterprise/device-permissions';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { DeviceConfigDialog } from './DeviceConfigDialog';
import { ConnectMfaDialog } from './ConnectMfaDialog';
import { DeviceItem, type MfaConnect } from './DeviceItem';
import { EditDeviceDialog } from './EditDeviceDialog';
import { useDeleteDevice } from './devices.mutations';
import { userDevicesQueryOptions } from './devices.queries';
import { useEndVpnSession, vpnSessionsQueryOptions } from './vpn-sessions.api';
import './devices.css';

type Action =
  | { kind: 'edit' | 'delete' | 'config'; device: Device }
  | { kind: 'connect'; device: Device; location: { id: number; name: string } }
  | undefined;

/** The devices section of a user profile. */
export function DevicesCard({ username }: { username: string }) {
  const { t } = useTranslation();
  const devices = useQuery(userDevicesQueryOptions(username));
  const { canManageDevices, canViewConfig } = useDevicePermissions();
  const remove = useDeleteDevice();
  const [action, setAction] = useState<Action>(undefined);
  const close = () => setAction(undefined);
  // Only the owner passes the MFA of their own devices' sessions (docs/mfa.md).
  const me = useQuery(meQueryOptions);
  const isOwn = me.data?.username === username;
  const hasMfaLocation = devices.data?.some((d) => d.networks?.some((n) => n.mfa_enabled)) ?? false;
  const sessions = useQuery({ ...vpnSessionsQueryOptions, enabled: isOwn && hasMfaLocation });
  const endSession = useEndVpnSession();
  const mfaFor = (device: Device): MfaConnect | undefined =>
    isOwn
      ? {
          sessions: sessions.data,
          onConnect: (location) => setAction({ kind: 'connect', device, location }),
          onDisconnect: (session) =>
            endSession.mutate(session.id, {
              onSuccess: () =>
                pushToast({
                  id: `vpn-session-ended-${session.id}`,
                  kind: 'success',
                  message: t('vpnSessions.toast.disconnected', { location: session.location_name }),
                }),
              onError: (error) => pushToast({ id: 'vpn-session-end-error', kind: 'error', message: problemMessage(t, error) }),
            }),
        }
      : undefined;

  const confirmDelete = (device: Device) =>
    remove.mutate(device.id, {
      onSuccess: () => {
        pushToast({ id: `device-deleted-${device.id}`, kind: 'success', message: t('devices.toast.deleted', { name: device.name }) });
        close();
      },
      onError: (error) => pushToast({ id: 'device-delete-error', kind: 'error', message: problemMessage(t, error) }),
    });

  return (
    <section className="card profile__devices" aria-labelledby="devices-title">
      <div className="card__header">
        <h2 id="devices-title" className="card__title">
          {t('devices.title')}
        </h2>
        {canManageDevices ? (
          <Link to="/users/$username/add-device" params={{ username }} className="btn btn--primary btn--sm">
            {t('devices.add')}
          </Link>
        ) : (
          <p className="field__hint">{t('devices.managementLocked')}</p>
        )}
      </div>
      {devices.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : devices.isError ? (
        <StateMessage kind="error" title={t('devices.loadError')} onRetry={() => void devices.refetch()} />
      ) : devices.data.length === 0 ? (
        <StateMessage kind="empty" title={t('devices.empty')} hint={canManageDevices ? t('devices.emptyHint') : undefined} />
      ) : (
        <ul className="device-list">
          {devices.data.map((device) => (
            <DeviceItem
              key={device.id}
              device={device}
              canManage={canManageDevices}
              canViewConfig={canViewConfig}
              onEdit={() => setAction({ kind: 'edit', device })}
              onDelete={() => setAction({ kind: 'delete', device })}
              onShowConfig={() => setAction({ kind: 'config', device })}
              mfa={mfaFor(device)}
            />
          ))}
        </ul>
      )}
      {action?.kind === 'edit' ? <EditDeviceDialog device={action.device} onClose={close} /> : null}
      {action?.kind === 'config' ? <DeviceConfigDialog device={action.device} onClose={close} /> : null}
      {action?.kind === 'connect' ? <ConnectMfaDialog device={action.device} location={action.location} onClose={close} /> : null}
      <ConfirmDialog
        title={t('devices.delete.title')}
        isOpen={action?.kind === 'delete'}
        onCancel={close}
        onConfirm={() => action && confirmDelete(action.device)}
        confirmLabel={t('common.delete')}
        isDanger
        isPending={remove.isPending}
      >
        <p>{t('devices.delete.message', { name: action?.device.name ?? '' })}</p>
      </ConfirmDialog>
    </section>
  );
}
