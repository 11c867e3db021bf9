import { ApiError } from '@palisade/api-client';
import { ImportNetworkBodySchema } from '@palisade/contracts';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { GroupsPicker } from './GroupsPicker';
import { type ImportedPeer, useImportLocation } from './locations.mutations';
import type { Network } from '@palisade/contracts';

type UnfinishedImport = {
  location_id: number;
  name: string;
  count: number;
};

/** The params of a `network.import_pending` problem: which location, how many peers wait. */
function unfinishedImport(error: unknown): UnfinishedImport | undefined {
  const params = error instanceof ApiError ? error.problem.errors?.[0]?.params : undefined;
  if (!params || typeof params.location_id !== 'number') return undefined;
  return { location_id: params.location_id, name: String(params.name ?? ''), count: Number(params.count ?? 0) };
}

interface ImportStepProps {
  onBack: () => void;
  onImported: (network: Network, devices: ImportedPeer[]) => void;
}

/** Import a location from a WireGuard server config; the file is read here, as text. */
export function ImportStep({ onBack, onImported }: ImportStepProps) {
  const { t } = useTranslation();
  const fileId = useId();
  const importLocation = useImportLocation();
  const form = useZodForm(ImportNetworkBodySchema, { name: '', endpoint: '', config: '', allowed_groups: [] as string[] });
  const [fileName, setFileName] = useState('');
  const [banner, setBanner] = useState<string | undefined>(undefined);
  /** The same name was imported before and its peers still wait: point to that location. */
  const [unfinished, setUnfinished] = useState<UnfinishedImport | undefined>(undefined);

  const onFile = async (file: File | undefined) => {
    setBanner(undefined);
    setFileName(file?.name ?? '');
    form.setValue('config', file ? await file.text() : '');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBanner(undefined);
    setUnfinished(undefined);
    const body = form.validate(form.values);
    if (!body) return;
    importLocation.mutate(body, {
      onSuccess: (result) => onImported(result.network, result.devices),
      onError: (error) => {
        if (hasCode(error, 'network.import_invalid') && error instanceof ApiError) {
          const line = error.problem.errors?.[0]?.params?.line;
          // The detail reads "line N: reason"; the line is shown by the localized message.
          const detail = (error.problem.detail ?? '').replace(/^line \d+:\s*/, '');
          setBanner(line !== undefined ? t('wizard.import.lineError', { line, detail }) : `${t('error.network.import_invalid')} ${detail}`);
        } else if (hasCode(error, 'network.name_taken')) form.setErrors({ name: { code: 'name_taken' } });
        else if (hasCode(error, 'network.import_pending') && unfinishedImport(error)) setUnfinished(unfinishedImport(error));
        else if (!form.applyServerError(error)) setBanner(problemMessage(t, error));
      },
    });
  };

  return (
    <form className="card" onSubmit={submit} noValidate aria-label={t('wizard.import.title')}>
      <div className="card__header">
        <h2 className="card__title">{t('wizard.import.title')}</h2>
      </div>
      <div className="card__body form-grid form-grid--2">
        <FormErrorBanner className="form-grid__wide">{banner}</FormErrorBanner>
        <div>
          <TextField
            label={t('locations.name')}
            value={form.values.name}
            onValueChange={(v) => {
              setUnfinished(undefined);
              form.setValue('name', v);
            }}
            error={form.errors.name ?? (unfinished ? { code: 'network.import_pending', params: unfinished } : undefined)}
          />
          {unfinished ? (
            <Link to="/locations/$id/map" params={{ id: String(unfinished.location_id) }} className="btn btn--link">
              {t('wizard.import.resume', { name: unfinished.name })}
            </Link>
          ) : null}
        </div>
        <TextField
          label={t('locations.endpoint')}
          hint={t('locations.endpointHint')}
          value={form.values.endpoint}
          onValueChange={(v) => form.setValue('endpoint', v)}
          error={form.errors.endpoint}
        />
        <div className={['field file-picker form-grid__wide', form.errors.config ? 'field--invalid' : ''].join(' ')}>
          <label className="field__label" htmlFor={fileId}>
            {t('wizard.import.file')}
          </label>
          <input id={fileId} type="file" accept=".conf,text/plain" className="input" onChange={(e) => void onFile(e.target.files?.[0])} />
          {form.errors.config ? (
            <p className="field__error" role="alert">
              {t('wizard.import.fileRequired')}
            </p>
          ) : (
            <p className="field__hint">{fileName ? t('wizard.import.fileChosen', { name: fileName }) : t('wizard.import.fileHint')}</p>
          )}
        </div>
        <GroupsPicker className="form-grid__wide" value={form.values.allowed_groups} onChange={(g) => form.setValue('allowed_groups', g)} />
      </div>
      <div className="form-actions card__body">
        <Button onClick={onBack}>{t('wizard.back')}</Button>
        <Button type="submit" variant="primary" isLoading={importLocation.isPending}>
          {t('wizard.import.submit')}
        </Button>
      </div>
    </form>
  );
}
