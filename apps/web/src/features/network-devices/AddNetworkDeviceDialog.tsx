import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { withPrivateKey } from '@/features/devices/config-text';
import { listError } from '@/features/locations/location-form';
import { locationsQueryOptions } from '@/features/locations/locations.queries';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssues, fieldMessage, issuesFromProblem } from '@/lib/field-errors';
import { withoutField } from '@/lib/use-zod-form';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { AssignedIpField } from './AssignedIpField';
import { KeyModeChoice } from './KeyModeChoice';
import type { CreatedNetworkDevice } from './NetworkDeviceConfigDialog';
import { buildNetworkDeviceRequest, type NetworkDeviceFormValues } from './network-device-form';
import { type CliToken, useCreateNetworkDevice, useStartCli } from './network-devices.mutations';

const EMPTY: NetworkDeviceFormValues = { name: '', locationId: '', ips: '', keyMode: 'generate', publicKey: '', description: '' };

/** The API field each form value is checked as: editing a value clears that field's errors. */
const API_FIELD: Record<keyof NetworkDeviceFormValues, string> = {
  name: 'name',
  locationId: 'location_id',
  ips: 'assigned_ips',
  keyMode: 'wireguard_pubkey',
  publicKey: 'wireguard_pubkey',
  description: 'description',
};

interface AddNetworkDeviceDialogProps {
  onClose: () => void;
  onCreated: (created: CreatedNetworkDevice) => void;
  onToken: (token: CliToken) => void;
}

/** Add a network device; MFA-protected locations are not offered (spec §6). */
export function AddNetworkDeviceDialog({ onClose, onCreated, onToken }: AddNetworkDeviceDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const locations = useQuery(locationsQueryOptions);
  const create = useCreateNetworkDevice();
  const startCli = useStartCli();
  const [v, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldIssues>({});
  const set = <K extends keyof NetworkDeviceFormValues>(key: K, value: NetworkDeviceFormValues[K]) => {
    setValues((s) => ({ ...s, [key]: value }));
    setErrors((e) => withoutField(e, API_FIELD[key]));
  };
  const allowed = (locations.data ?? []).filter((n) => !n.mfa_enabled);
  const locationId = Number(v.locationId) || 0;

  const onError = (error: unknown) => {
    if (hasCode(error, 'device.name_taken')) return setErrors({ name: { code: 'device.name_taken' } });
    const issues = issuesFromProblem(error);
    if (issues) return setErrors(issues);
    const isToken = v.keyMode === 'cli';
    pushToast({
      id: 'network-device-error',
      kind: 'error',
      message: isToken ? t('error.token.generation_failed') : problemMessage(t, error),
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request = buildNetworkDeviceRequest(v);
    if (request.kind === 'invalid') return setErrors(request.errors);
    setErrors({});
    if (request.kind === 'cli') return startCli.mutate({ body: request.body }, { onSuccess: onToken, onError });
    const { keyPair } = request;
    create.mutate(request.body, {
      onSuccess: ({ device, config }) =>
        onCreated({
          name: device.name,
          location: { id: device.location_id, name: device.location_name },
          config: keyPair ? withPrivateKey(config, keyPair.privateKey) : config,
        }),
      onError,
    });
  };

  return (
    <Dialog
      title={t('networkDevices.addTitle')}
      isOpen
      onClose={onClose}
      footer={
        <FormDialogFooter
          formId={formId}
          submitLabel={v.keyMode === 'cli' ? t('networkDevices.generateToken') : t('networkDevices.add')}
          isSaving={create.isPending || startCli.isPending}
          onCancel={onClose}
        />
      }
    >
      <form id={formId} className="form-grid form-grid--2" onSubmit={submit} noValidate>
        <TextField
          label={t('devices.name')}
          className="form-grid__wide"
          value={v.name}
          onValueChange={(x) => set('name', x)}
          error={errors.name}
        />
        <div className="form-grid__wide">
          <SelectField
            label={t('devices.location')}
            value={v.locationId}
            options={[
              { value: '', label: t('networkDevices.chooseLocation') },
              ...allowed.map((n) => ({ value: String(n.id), label: n.name })),
            ]}
            onValueChange={(x) => {
              set('locationId', x);
              set('ips', '');
            }}
          />
          {errors.location_id ? (
            <p className="field__error" role="alert">
              {fieldMessage(t, errors.location_id)}
            </p>
          ) : null}
          {locations.data && allowed.length < locations.data.length ? <p className="field__hint">{t('networkDevices.mfaHidden')}</p> : null}
        </div>
        {locationId > 0 ? (
          <AssignedIpField
            key={locationId}
            locationId={locationId}
            value={v.ips}
            onValueChange={(x) => set('ips', x)}
            error={listError(errors, 'assigned_ips')}
            shouldSuggest
          />
        ) : null}
        <KeyModeChoice value={v.keyMode} onChange={(m) => set('keyMode', m)} />
        {v.keyMode === 'own' ? (
          <TextField
            label={t('devices.publicKey')}
            className="form-grid__wide"
            spellCheck={false}
            value={v.publicKey}
            onValueChange={(x) => set('publicKey', x)}
            error={errors.wireguard_pubkey}
          />
        ) : null}
        <TextField
          label={t('networkDevices.description')}
          className="form-grid__wide"
          isOptional
          value={v.description}
          onValueChange={(x) => set('description', x)}
          error={errors.description}
        />
      </form>
    </Dialog>
  );
}
