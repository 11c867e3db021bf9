import { ACTIVITY_STREAM_KINDS, type ActivityLogStream } from '@palisade/contracts';
import { useState } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { FormDialog } from '@/components/FormDialog';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { CertificateField } from './CertificateField';
import { STREAM_KIND_LABELS, streamBody, streamFormValues, streamSchema } from './stream-form';
import { useCreateStream, useUpdateStream } from './streams.mutations';

/** Add (POST /activity_log_stream) or edit (PUT /activity_log_stream/{id}) a destination. */
export function StreamDialog({ stream, onClose }: { stream?: ActivityLogStream; onClose: () => void }) {
  const { t } = useTranslation();
  const isNew = stream === undefined;
  const create = useCreateStream();
  const update = useUpdateStream();
  const form = useZodForm(streamSchema(isNew), streamFormValues(stream));
  const [clearPassword, setClearPassword] = useState(false);
  const v = form.values;

  const onError = (error: unknown) => {
    if (!form.applyServerError(error)) pushToast({ id: 'stream-save-error', kind: 'error', message: problemMessage(t, error) });
  };
  const onSaved = () => {
    pushToast({
      id: 'stream-saved',
      kind: 'success',
      message: t(isNew ? 'settings.streams.toast.created' : 'settings.streams.toast.saved'),
    });
    onClose();
  };
  const onSubmit = () => {
    const body = form.validate(clearPassword ? { ...v, password: '' } : streamBody(v, isNew));
    if (!body) return;
    if (isNew) create.mutate({ ...body, password: body.password ?? '' }, { onSuccess: onSaved, onError });
    else update.mutate({ id: stream.id, body }, { onSuccess: onSaved, onError });
  };
  const text = (name: 'name' | 'url' | 'username') => ({
    name,
    value: v[name],
    onValueChange: (value: string) => form.setValue(name, value),
    error: form.errors[name],
    autoComplete: 'off',
  });

  const title = isNew ? t('settings.streams.add') : t('settings.streams.edit');
  return (
    <FormDialog
      title={title}
      className="form-grid form-grid--2"
      isSaving={create.isPending || update.isPending}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <SelectField
        label={t('settings.streams.kind')}
        value={v.kind}
        options={ACTIVITY_STREAM_KINDS.map((value) => ({ value, label: t(STREAM_KIND_LABELS[value]) }))}
        onValueChange={(value) => form.setValue('kind', value)}
      />
      <TextField label={t('settings.streams.name')} {...text('name')} />
      <TextField
        label={t('settings.streams.url')}
        type="url"
        className="form-grid__wide"
        placeholder={v.kind === 'vector_http' ? 'https://vector.example.com:8080/' : 'https://logstash.example.com:8080/'}
        hint={t('settings.streams.urlHint')}
        {...text('url')}
      />
      <TextField label={t('settings.streams.username')} isOptional {...text('username')} />
      <TextField
        label={t('settings.streams.password')}
        name="password"
        type="password"
        autoComplete="new-password"
        isOptional
        disabled={clearPassword}
        hint={isNew ? undefined : t('settings.streams.passwordKeep')}
        value={v.password}
        onValueChange={(value) => form.setValue('password', value)}
        error={form.errors.password}
      />
      {stream?.has_password ? (
        <CheckboxField label={t('settings.streams.passwordClear')} checked={clearPassword} onCheckedChange={setClearPassword} />
      ) : null}
      <CertificateField
        value={v.certificate}
        onValueChange={(value) => form.setValue('certificate', value)}
        error={form.errors.certificate}
      />
    </FormDialog>
  );
}
