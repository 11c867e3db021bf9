import {
  CreateExternalProviderBodySchema,
  DIRECTORY_SYNC_BEHAVIORS,
  DIRECTORY_SYNC_KINDS,
  DIRECTORY_SYNC_TARGETS,
  type ExternalProvider,
} from '@palisade/contracts';
import { ApiError } from '@palisade/api-client';
import type { FormEvent } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { directorySyncBody, type Values, valuesOf } from './DirectorySyncSection.form';
import { useSaveDirectorySync, useTestDirectorySync } from './DirectorySyncSection.queries';
import { DirectorySyncSectionCredentials } from './DirectorySyncSectionCredentials';
import { SettingsFormActions, useSettingsLeaveGuard } from './SettingsFormActions';

/**
 * Settings › OpenID › Directory sync (docs/directory-sync.md): the directory-sync fields of a
 * Google, Microsoft, Okta or JumpCloud provider, and the connection test of the saved settings.
 */
export function DirectorySyncSection({ provider }: { provider: ExternalProvider }) {
  if (!(DIRECTORY_SYNC_KINDS as readonly string[]).includes(provider.kind)) return null;
  return <DirectorySyncForm key={`${provider.name}:${provider.kind}`} provider={provider} />;
}

function DirectorySyncForm({ provider }: { provider: ExternalProvider }) {
  const { t } = useTranslation();
  const save = useSaveDirectorySync();
  const test = useTestDirectorySync();
  const saved = valuesOf(provider);
  const form = useZodForm(CreateExternalProviderBodySchema, saved);
  const isDirty = (Object.keys(saved) as (keyof Values)[]).some((k) => form.values[k] !== saved[k]);
  useSettingsLeaveGuard(isDirty);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(directorySyncBody(provider, form.values));
    if (!body) return;
    save.mutate(
      { name: provider.name, body },
      {
        onSuccess: () => pushToast({ id: 'directory-sync-saved', kind: 'success', message: t('settings.saved') }),
        onError: (error) => form.applyServerError(error),
      },
    );
  };
  const behaviors = DIRECTORY_SYNC_BEHAVIORS.map((value) => ({ value, label: t(`settings.directorySync.behavior.${value}`) }));
  const testError = test.error instanceof ApiError && test.error.problem.detail ? test.error.problem.detail : undefined;

  return (
    <form className="settings" onSubmit={onSubmit} noValidate aria-label={t('settings.directorySync.title')}>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('settings.directorySync.title')}</h2>
          <Button size="sm" onClick={() => test.mutate()} isLoading={test.isPending} disabled={isDirty}>
            {t('settings.directorySync.test')}
          </Button>
        </div>
        <div className="card__body form-grid form-grid--2">
          <p className="field__hint form-grid__wide">{t('settings.directorySync.hint')}</p>
          {test.data ? (
            <p className="form-grid__wide" role="status">
              {t('settings.directorySync.testOk', { count: test.data.users })}{' '}
              {t('settings.directorySync.testGroups', { count: test.data.groups })}
            </p>
          ) : null}
          {test.isError ? (
            <p className="field__error form-grid__wide" role="alert">
              {problemMessage(t, test.error)} {testError}
            </p>
          ) : null}
          <div className="form-grid__wide">
            <CheckboxField
              label={t('settings.directorySync.enable')}
              checked={form.values.enable_directory_sync}
              onCheckedChange={(v) => form.setValue('enable_directory_sync', v)}
            />
          </div>
          <SelectField
            label={t('settings.directorySync.target')}
            value={form.values.sync_target}
            options={DIRECTORY_SYNC_TARGETS.map((value) => ({ value, label: t(`settings.directorySync.target.${value}`) }))}
            onValueChange={(v) => form.setValue('sync_target', v)}
          />
          <TextField
            label={t('settings.directorySync.interval')}
            hint={t('settings.directorySync.intervalHint')}
            name="sync_interval"
            inputMode="numeric"
            value={form.values.sync_interval}
            onValueChange={(v) => form.setValue('sync_interval', v)}
            error={form.errors.sync_interval}
          />
          <SelectField
            label={t('settings.directorySync.userBehavior')}
            value={form.values.user_behavior}
            options={behaviors}
            onValueChange={(v) => form.setValue('user_behavior', v)}
          />
          <SelectField
            label={t('settings.directorySync.adminBehavior')}
            value={form.values.admin_behavior}
            options={behaviors}
            onValueChange={(v) => form.setValue('admin_behavior', v)}
          />
          <TextField
            label={t('settings.directorySync.groupMatch')}
            hint={t('settings.directorySync.groupMatchHint')}
            name="group_match"
            isOptional
            value={form.values.group_match}
            onValueChange={(v) => form.setValue('group_match', v)}
            error={form.errors.group_match}
          />
          <DirectorySyncSectionCredentials provider={provider} values={form.values} errors={form.errors} onChange={form.setValue} />
        </div>
      </div>
      <SettingsFormActions isDirty={isDirty} isSaving={save.isPending} error={form.formError} onReset={() => form.reset(saved)} />
    </form>
  );
}
