import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import type { FieldIssues } from '@/lib/field-errors';
import type { DeviceFormValues, KeyMode } from './device-form';

interface AddDeviceFormProps {
  errors: FieldIssues;
  isPending: boolean;
  onSubmit: (values: DeviceFormValues) => void;
  /** Without it there is no way back (the enrollment flow's mandatory VPN step). */
  onCancel?: (() => void) | undefined;
  cancelLabel?: string;
}

/** Wizard step 1: the device name and where its keys come from. */
export function AddDeviceForm({ errors, isPending, onSubmit, onCancel, cancelLabel }: AddDeviceFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<DeviceFormValues>({ name: '', keyMode: 'generate', publicKey: '' });
  const set = <K extends keyof DeviceFormValues>(key: K, value: DeviceFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(values);
  };

  const choice = (mode: KeyMode, title: string, hint: string) => (
    <label className="choice">
      <input type="radio" name="key-mode" value={mode} checked={values.keyMode === mode} onChange={() => set('keyMode', mode)} />
      <span>
        <span className="choice__title">{title}</span>
        <span className="choice__hint">{hint}</span>
      </span>
    </label>
  );

  return (
    <form className="card" onSubmit={submit} noValidate>
      <div className="card__header">
        <h2 className="card__title">{t('addDevice.setupTitle')}</h2>
      </div>
      <div className="card__body form-grid">
        <TextField
          label={t('devices.name')}
          name="name"
          autoComplete="off"
          value={values.name}
          onValueChange={(v) => set('name', v)}
          error={errors.name}
        />
        <fieldset className="choice-list">
          <legend className="field__label">{t('addDevice.keys')}</legend>
          {choice('generate', t('addDevice.generate'), t('addDevice.generateHint'))}
          {choice('own', t('addDevice.own'), t('addDevice.ownHint'))}
        </fieldset>
        {values.keyMode === 'own' ? (
          <TextField
            label={t('devices.publicKey')}
            name="wireguard_pubkey"
            autoComplete="off"
            spellCheck={false}
            value={values.publicKey}
            onValueChange={(v) => set('publicKey', v)}
            error={errors.publicKey}
            hint={t('addDevice.publicKeyHint')}
          />
        ) : null}
      </div>
      <div className="form-actions card__body">
        {onCancel ? <Button onClick={onCancel}>{cancelLabel ?? t('common.cancel')}</Button> : null}
        <Button type="submit" variant="primary" isLoading={isPending}>
          {t('addDevice.submit')}
        </Button>
      </div>
    </form>
  );
}
