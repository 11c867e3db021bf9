import type { DeviceConfig } from '@palisade/contracts';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { useDevicePermissions } from '@/features/enterprise/device-permissions';
import { useTranslation } from '@/i18n/use-translation';
import type { FieldIssues } from '@/lib/field-errors';
import { issuesFromProblem } from '@/lib/field-errors';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { AddDeviceForm } from './AddDeviceForm';
import { DeviceConfigsStep } from './DeviceConfigsStep';
import { buildDeviceBody, type DeviceFormValues } from './device-form';
import { useCreateDevice } from './devices.mutations';
import './devices.css';

interface Created {
  name: string;
  configs: DeviceConfig[];
  privateKey: string | undefined;
}

/** Add-device wizard: name and keys, then the per-location configs (private key shown only now). */
export function AddDeviceWizardPage() {
  const { t } = useTranslation();
  const { username } = useParams({ from: '/_authed/users/$username_/add-device' });
  const navigate = useNavigate();
  const { canManageDevices, canViewConfig } = useDevicePermissions();
  const create = useCreateDevice();
  const [errors, setErrors] = useState<FieldIssues>({});
  const [created, setCreated] = useState<Created | undefined>(undefined);
  const backToProfile = () => void navigate({ to: '/users/$username', params: { username } });
  // The generated private key exists only on this screen; "Finish" is the explicit way out.
  useLeaveGuard(Boolean(created?.privateKey && created.configs.length > 0) && canViewConfig, t('addDevice.leaveWarning'));
  const finish = () => void navigate({ to: '/users/$username', params: { username }, ignoreBlocker: true });

  const onSubmit = (values: DeviceFormValues) => {
    const result = buildDeviceBody(values);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    create.mutate(
      { username, body: result.body },
      {
        onSuccess: ({ device, configs }) => setCreated({ name: device.name, configs, privateKey: result.keyPair?.privateKey }),
        onError: (error) => {
          if (hasCode(error, 'device.name_taken')) return setErrors({ name: { code: 'device.name_taken' } });
          if (hasCode(error, 'device.key_taken', 'device.invalid_key'))
            return setErrors({ publicKey: { code: hasCode(error, 'device.invalid_key') ? 'device.invalid_key' : 'invalid' } });
          const issues = issuesFromProblem(error);
          if (issues) return setErrors(issues);
          pushToast({ id: 'device-create-error', kind: 'error', message: problemMessage(t, error) });
        },
      },
    );
  };

  return (
    <section aria-labelledby="add-device-title" className="wizard">
      <header className="page-header">
        <h1 id="add-device-title" className="page-header__title">
          {t('addDevice.title')}
        </h1>
      </header>
      <ol className="wizard__steps">
        <li aria-current={created ? undefined : 'step'} className={created ? 'is-done' : undefined}>
          {t('addDevice.step.setup')}
        </li>
        <li aria-current={created ? 'step' : undefined}>{t('addDevice.step.configs')}</li>
      </ol>
      {!canManageDevices ? (
        <StateMessage kind="error" title={t('error.device.management_locked')} />
      ) : created ? (
        <DeviceConfigsStep deviceName={created.name} configs={created.configs} privateKey={created.privateKey} onFinish={finish} />
      ) : (
        <AddDeviceForm errors={errors} isPending={create.isPending} onSubmit={onSubmit} onCancel={backToProfile} />
      )}
    </section>
  );
}
