import { type NetworkDevice, UpdateNetworkDeviceBodySchema } from '@palisade/contracts';
import { type FormEvent, useId } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { listError } from '@/features/locations/location-form';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { AssignedIpField, splitIps } from './AssignedIpField';
import { useUpdateNetworkDevice } from './network-devices.mutations';

/** PUT /device/network/{id}: name, assigned IPs, description. */
export function EditNetworkDeviceDialog({ device, onClose }: { device: NetworkDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const update = useUpdateNetworkDevice();
  const form = useZodForm(UpdateNetworkDeviceBodySchema, {
    name: device.name,
    ips: device.assigned_ips.join(', '),
    description: device.description ?? '',
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { ips, description, name } = form.values;
    const body = form.validate({ name, assigned_ips: splitIps(ips), ...(description.trim() ? { description } : {}) });
    if (!body) return;
    update.mutate(
      { id: device.id, body },
      {
        onSuccess: (saved) => {
          pushToast({ id: `network-device-saved-${device.id}`, kind: 'success', message: t('devices.toast.saved', { name: saved.name }) });
          onClose();
        },
        onError: (error) => {
          if (hasCode(error, 'device.name_taken')) form.setErrors({ name: { code: 'device.name_taken' } });
          else if (!form.applyServerError(error))
            pushToast({ id: 'network-device-save-error', kind: 'error', message: problemMessage(t, error) });
        },
      },
    );
  };

  return (
    <Dialog
      title={t('devices.editTitle', { name: device.name })}
      isOpen
      onClose={onClose}
      footer={<FormDialogFooter formId={formId} submitLabel={t('common.save')} isSaving={update.isPending} onCancel={onClose} />}
    >
      <form id={formId} className="form-grid" onSubmit={submit} noValidate>
        <TextField
          label={t('devices.name')}
          value={form.values.name}
          onValueChange={(x) => form.setValue('name', x)}
          error={form.errors.name}
        />
        <p className="muted">
          {t('devices.location')}: <strong>{device.location_name}</strong>
        </p>
        <AssignedIpField
          locationId={device.location_id}
          value={form.values.ips}
          onValueChange={(x) => form.setValue('ips', x)}
          error={listError(form.errors, 'assigned_ips')}
          shouldSuggest={false}
          ownIps={device.assigned_ips}
        />
        <TextField
          label={t('networkDevices.description')}
          isOptional
          value={form.values.description}
          onValueChange={(x) => form.setValue('description', x)}
          error={form.errors.description}
        />
      </form>
    </Dialog>
  );
}
