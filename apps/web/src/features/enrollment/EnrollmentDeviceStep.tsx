import type { DeviceConfig } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { AddDeviceForm } from '@/features/devices/AddDeviceForm';
import { DeviceConfigsStep } from '@/features/devices/DeviceConfigsStep';
import { buildDeviceBody, type DeviceFormValues } from '@/features/devices/device-form';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssues, issuesFromProblem } from '@/lib/field-errors';
import { hasCode } from '@/lib/problem-message';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { addEnrollmentDevice } from './enrollment-flow.api';

interface Created {
  name: string;
  configs: DeviceConfig[];
  privateKey: string | undefined;
}

const deviceErrors = (error: unknown): FieldIssues | undefined => {
  if (hasCode(error, 'device.name_taken')) return { name: { code: 'device.name_taken' } };
  if (hasCode(error, 'device.invalid_key')) return { publicKey: { code: 'device.invalid_key' } };
  if (hasCode(error, 'device.key_taken')) return { publicKey: { code: 'invalid' } };
  return issuesFromProblem(error);
};

/**
 * The enrollment flow's first VPN device, with the add-device wizard's pieces: keys made in this
 * browser (only the public key is sent), then each location's config with download and QR code.
 * "Skip" exists only when the admin made the VPN step optional.
 */
export function EnrollmentDeviceStep({ isOptional, onDone }: { isOptional: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FieldIssues>({});
  const [created, setCreated] = useState<Created | undefined>(undefined);
  const add = useMutation({ mutationFn: addEnrollmentDevice });
  useLeaveGuard(Boolean(created?.privateKey && created.configs.length > 0), t('addDevice.leaveWarning'));

  const onSubmit = (values: DeviceFormValues) => {
    const result = buildDeviceBody(values);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    add.mutate(result.body, {
      onSuccess: ({ device, configs }) => setCreated({ name: device.name, configs, privateKey: result.keyPair?.privateKey }),
      onError: (error) => setErrors(deviceErrors(error) ?? {}),
    });
  };

  if (created)
    return <DeviceConfigsStep deviceName={created.name} configs={created.configs} privateKey={created.privateKey} onFinish={onDone} />;
  const hasFormError = add.isError && !deviceErrors(add.error);
  return (
    <div className="form-grid">
      <h1 className="auth-form__title">{t('enrollment.flow.deviceTitle')}</h1>
      <p className="auth-form__subtitle">{isOptional ? t('enrollment.flow.deviceOptional') : t('enrollment.flow.deviceRequired')}</p>
      <FormErrorBanner error={hasFormError ? add.error : null} />
      <AddDeviceForm
        errors={errors}
        isPending={add.isPending}
        onSubmit={onSubmit}
        onCancel={isOptional ? onDone : undefined}
        cancelLabel={t('enrollment.flow.skipDevice')}
      />
    </div>
  );
}
