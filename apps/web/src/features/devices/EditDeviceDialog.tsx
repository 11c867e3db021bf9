import type { Device } from '@palisade/contracts';
import { UpdateDeviceBodySchema } from '@palisade/contracts';
import { type FormEvent, useId } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { useUpdateDevice } from './devices.mutations';

/** Rename a device or change its public key (PUT /device/{id}). */
export function EditDeviceDialog({ device, onClose }: { device: Device; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const update = useUpdateDevice();
  const form = useZodForm(UpdateDeviceBodySchema, { name: device.name, wireguard_pubkey: device.wireguard_pubkey });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(form.values);
    if (!body) return;
    update.mutate(
      { id: device.id, body },
      {
        onSuccess: () => {
          pushToast({ id: `device-saved-${device.id}`, kind: 'success', message: t('devices.toast.saved', { name: body.name }) });
          onClose();
        },
        onError: (error) => {
          if (hasCode(error, 'device.name_taken')) form.setErrors({ name: { code: 'device.name_taken' } });
          else if (hasCode(error, 'device.invalid_key')) form.setErrors({ wireguard_pubkey: { code: 'device.invalid_key' } });
          else if (!form.applyServerError(error)) pushToast({ id: 'device-save-error', kind: 'error', message: problemMessage(t, error) });
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
      <form id={formId} className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('devices.name')}
          value={form.values.name}
          onValueChange={(v) => form.setValue('name', v)}
          error={form.errors.name}
        />
        <TextField
          label={t('devices.publicKey')}
          spellCheck={false}
          value={form.values.wireguard_pubkey}
          onValueChange={(v) => form.setValue('wireguard_pubkey', v)}
          error={form.errors.wireguard_pubkey}
        />
      </form>
    </Dialog>
  );
}
