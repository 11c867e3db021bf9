import { type NetworkBody, NetworkBodySchema } from '@palisade/contracts';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TagInput } from '@/components/TagInput';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { hasChanges, useLeaveGuard } from '@/lib/use-leave-guard';
import { useZodForm } from '@/lib/use-zod-form';
import { GroupsPicker } from './GroupsPicker';
import { EMPTY_LOCATION, type LocationFormValues, listError, valuesToBody } from './location-form';
import './locations.css';

interface LocationFormProps {
  initial?: LocationFormValues;
  submitLabel: string;
  isPending: boolean;
  /** Returns the server error, if any; field errors land on their fields, the rest shows as a banner. */
  onSubmit: (body: NetworkBody) => Promise<unknown>;
  onCancel?: () => void;
  /** The cancel button's text ("Back" in the wizard). */
  cancelLabel?: string;
  extraActions?: ReactNode;
}

/** Every field of a location (spec §3), validated with the API's `NetworkBodySchema`. */
export function LocationForm({
  initial = EMPTY_LOCATION,
  submitLabel,
  isPending,
  onSubmit,
  onCancel,
  cancelLabel,
  extraActions,
}: LocationFormProps) {
  const { t } = useTranslation();
  const form = useZodForm(NetworkBodySchema, initial);
  const [banner, setBanner] = useState<string | undefined>(undefined);
  const v = form.values;
  const [saved, setSaved] = useState(initial);
  useLeaveGuard(hasChanges(v, saved), t('form.leaveWarning'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(undefined);
    const body = form.validate(valuesToBody(v));
    if (!body) return;
    const error = await onSubmit(body);
    if (!error) return setSaved(v);
    if (hasCode(error, 'network.name_taken')) form.setErrors({ name: { code: 'name_taken' } });
    else if (!form.applyServerError(error)) setBanner(problemMessage(t, error));
  };

  const text = (name: 'name' | 'endpoint' | 'port' | 'keepalive_interval' | 'peer_disconnect_threshold') => ({
    name,
    value: v[name],
    onValueChange: (value: string) => form.setValue(name, value),
    error: form.errors[name],
    autoComplete: 'off',
  });
  const list = (name: 'address' | 'dns' | 'allowed_ips') => ({
    values: v[name],
    onValuesChange: (values: string[]) => form.setValue(name, values),
    error: listError(form.errors, name),
  });
  const flag = (name: 'mfa_enabled' | 'acl_enabled' | 'acl_default_allow') => ({
    name,
    checked: v[name],
    onCheckedChange: (checked: boolean) => form.setValue(name, checked),
  });

  return (
    <form className="card location-form" onSubmit={submit} noValidate aria-label={t('locations.formLabel')}>
      <FormErrorBanner className="card__body">{banner}</FormErrorBanner>
      <div className="card__body form-grid form-grid--2">
        <TextField label={t('locations.name')} className="form-grid__wide" {...text('name')} />
        <TagInput
          label={t('locations.address')}
          hint={t('locations.addressHint')}
          placeholder="10.10.0.1/24"
          className="form-grid__wide"
          {...list('address')}
        />
        <TextField label={t('locations.endpoint')} hint={t('locations.endpointHint')} placeholder="vpn.example.com" {...text('endpoint')} />
        <TextField label={t('locations.port')} inputMode="numeric" {...text('port')} />
        <TagInput label={t('locations.dns')} hint={t('locations.listHint')} placeholder="1.1.1.1" isOptional {...list('dns')} />
        <TagInput
          label={t('locations.allowedIps')}
          hint={t('locations.allowedIpsHint')}
          placeholder="0.0.0.0/0"
          isOptional
          {...list('allowed_ips')}
        />
        <TextField label={t('locations.keepalive')} hint={t('locations.secondsHint')} inputMode="numeric" {...text('keepalive_interval')} />
        <TextField
          label={t('locations.disconnectThreshold')}
          hint={t('locations.secondsHint')}
          inputMode="numeric"
          {...text('peer_disconnect_threshold')}
        />
        <GroupsPicker className="form-grid__wide" value={v.allowed_groups} onChange={(groups) => form.setValue('allowed_groups', groups)} />
        <div className="form-grid__wide check-list location-form__flags">
          <CheckboxField label={t('locations.mfa')} hint={t('locations.mfaHint')} {...flag('mfa_enabled')} />
          <CheckboxField label={t('locations.acl')} hint={t('locations.aclHint')} {...flag('acl_enabled')} />
          <CheckboxField
            label={t('locations.aclDefaultAllow')}
            hint={t('locations.aclDefaultAllowHint')}
            disabled={!v.acl_enabled}
            {...flag('acl_default_allow')}
          />
        </div>
      </div>
      <div className="form-actions card__body">
        {extraActions}
        {onCancel ? <Button onClick={onCancel}>{cancelLabel ?? t('common.cancel')}</Button> : null}
        <Button type="submit" variant="primary" isLoading={isPending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
