import {
  CreateExternalProviderBodySchema,
  EXTERNAL_PROVIDER_BASE_URLS,
  EXTERNAL_PROVIDER_KINDS,
  type ExternalProvider,
  type ExternalProviderKind,
  USERNAME_HANDLINGS,
  type UsernameHandling,
} from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useCopy } from '@/lib/use-copy';
import { useZodForm } from '@/lib/use-zod-form';
import { DirectorySyncSection } from './DirectorySyncSection';
import { SettingsFormActions, useSettingsLeaveGuard } from './SettingsFormActions';
import { externalProviderQueryOptions, useDeleteExternalProvider, useSaveExternalProvider } from './OpenIdProviderTab.queries';

type ProviderFormValues = {
  kind: ExternalProviderKind;
  client_id: string;
  /** Empty keeps the stored secret. */
  client_secret: string;
  base_url: string;
  display_name: string;
  auto_create_account: boolean;
  username_handling: UsernameHandling;
};

const HANDLING_LABELS: Record<UsernameHandling, MessageKey> = {
  remove: 'settings.openid.usernameHandling.remove',
  replace: 'settings.openid.usernameHandling.replace',
  prune_email: 'settings.openid.usernameHandling.prune_email',
};

const formValues = (p: ExternalProvider | null): ProviderFormValues => ({
  kind: p?.kind ?? 'Custom',
  client_id: p?.client_id ?? '',
  client_secret: '',
  base_url: p?.base_url ?? '',
  display_name: p?.display_name ?? '',
  auto_create_account: p?.auto_create_account ?? true,
  username_handling: p?.username_handling ?? 'remove',
});

/**
 * The request body: the form's fields over the saved provider's other settings (directory sync),
 * which a PUT would otherwise reset. A new provider is named after its kind.
 */
export function providerBody(saved: ExternalProvider | null, v: ProviderFormValues) {
  const { client_secret_set, google_service_account_key_set, okta_private_jwk_set, jumpcloud_api_key_set, ...rest } = saved ?? {
    client_secret_set: false,
    google_service_account_key_set: false,
    okta_private_jwk_set: false,
    jumpcloud_api_key_set: false,
  };
  return {
    ...rest,
    name: saved?.name ?? v.kind,
    kind: v.kind,
    client_id: v.client_id,
    base_url: v.base_url,
    display_name: v.display_name,
    auto_create_account: v.auto_create_account,
    username_handling: v.username_handling,
    ...(v.client_secret !== '' && { client_secret: v.client_secret }),
  };
}

/** Settings › OpenID: the company's identity provider users sign in with (docs/external-openid.md). */
export function OpenIdProviderTab() {
  const { t } = useTranslation();
  const query = useQuery(externalProviderQueryOptions);
  if (query.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (query.isError) return <StateMessage kind="error" title={t('settings.loadError')} onRetry={() => void query.refetch()} />;
  const provider = query.data.provider ?? null;
  return (
    <>
      <ProviderForm key={query.dataUpdatedAt} provider={provider} redirectUrl={query.data.redirect_url} />
      {provider ? <DirectorySyncSection provider={provider} /> : null}
    </>
  );
}

function ProviderForm({ provider, redirectUrl }: { provider: ExternalProvider | null; redirectUrl: string }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const save = useSaveExternalProvider();
  const remove = useDeleteExternalProvider();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const saved = formValues(provider);
  const form = useZodForm(CreateExternalProviderBodySchema, saved);
  const isDirty = (Object.keys(saved) as (keyof ProviderFormValues)[]).some((k) => form.values[k] !== saved[k]);
  useSettingsLeaveGuard(isDirty);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(providerBody(provider, form.values));
    if (!body) return;
    save.mutate(
      { current: provider?.name, body },
      {
        onSuccess: () => pushToast({ id: 'openid-provider-saved', kind: 'success', message: t('settings.saved') }),
        onError: (error) => form.applyServerError(error),
      },
    );
  };

  const setKind = (kind: ExternalProviderKind) => {
    form.setValue('kind', kind);
    // The issuer is fixed for some kinds: prefill it (and clear a prefill of another kind).
    const fixed = EXTERNAL_PROVIDER_BASE_URLS[kind];
    const prefills = Object.values(EXTERNAL_PROVIDER_BASE_URLS);
    if (fixed) form.setValue('base_url', fixed);
    else if (prefills.includes(form.values.base_url)) form.setValue('base_url', '');
  };

  const text = (name: 'client_id' | 'client_secret' | 'base_url' | 'display_name') => ({
    name,
    value: form.values[name],
    onValueChange: (v: string) => form.setValue(name, v),
    error: form.errors[name],
  });

  return (
    <form className="settings" onSubmit={onSubmit} noValidate aria-label={t('settings.tab.openid')}>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('settings.openid.title')}</h2>
          {provider ? (
            <Button size="sm" variant="danger" onClick={() => setConfirmDelete(true)}>
              {t('settings.openid.delete')}
            </Button>
          ) : null}
        </div>
        <div className="card__body form-grid form-grid--2">
          <p className="field__hint form-grid__wide">{provider ? t('settings.openid.hint') : t('settings.openid.none')}</p>
          <SelectField
            label={t('settings.openid.kind')}
            value={form.values.kind}
            options={EXTERNAL_PROVIDER_KINDS.map((value) => ({
              value,
              label: value === 'Custom' ? t('settings.openid.kind.custom') : value,
            }))}
            onValueChange={setKind}
          />
          <TextField
            label={t('settings.openid.baseUrl')}
            hint={t('settings.openid.baseUrlHint')}
            autoComplete="off"
            spellCheck={false}
            {...text('base_url')}
          />
          <TextField label={t('settings.openid.clientId')} autoComplete="off" spellCheck={false} {...text('client_id')} />
          <TextField
            label={t('settings.openid.clientSecret')}
            type="password"
            autoComplete="new-password"
            isOptional
            hint={provider?.client_secret_set ? t('settings.openid.clientSecretKeep') : undefined}
            status={provider?.client_secret_set ? <Badge tone="success">{t('settings.openid.clientSecretSet')}</Badge> : undefined}
            {...text('client_secret')}
          />
          <TextField
            label={t('settings.openid.displayName')}
            hint={t('settings.openid.displayNameHint')}
            isOptional
            {...text('display_name')}
          />
          <SelectField
            label={t('settings.openid.usernameHandling')}
            value={form.values.username_handling}
            options={USERNAME_HANDLINGS.map((value) => ({ value, label: t(HANDLING_LABELS[value]) }))}
            onValueChange={(v) => form.setValue('username_handling', v)}
          />
          <div className="form-grid__wide">
            <CheckboxField
              label={t('settings.openid.autoCreate')}
              hint={t('settings.openid.autoCreateHint')}
              checked={form.values.auto_create_account}
              onCheckedChange={(v) => form.setValue('auto_create_account', v)}
            />
          </div>
          <div className="form-grid__wide form-grid__stack">
            <TextField
              label={t('settings.openid.redirectUrl')}
              hint={t('settings.openid.redirectUrlHint')}
              name="redirect_url"
              value={redirectUrl}
              onValueChange={() => undefined}
              readOnly
            />
            <Button size="sm" onClick={() => void copy(redirectUrl)}>
              {t('settings.openid.copyRedirectUrl')}
            </Button>
          </div>
        </div>
      </div>
      <SettingsFormActions isDirty={isDirty} isSaving={save.isPending} error={form.formError} onReset={() => form.reset(saved)} />
      {provider && confirmDelete ? (
        <ConfirmDialog
          title={t('settings.openid.deleteTitle')}
          isOpen
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() =>
            remove.mutate(provider.name, {
              onSuccess: () => {
                setConfirmDelete(false);
                pushToast({ id: 'openid-provider-deleted', kind: 'success', message: t('settings.openid.deleted') });
              },
              onError: (error) => pushToast({ id: 'openid-provider-delete', kind: 'error', message: problemMessage(t, error) }),
            })
          }
          confirmLabel={t('common.delete')}
          isDanger
          isPending={remove.isPending}
        >
          <p>{t('settings.openid.deleteMessage', { name: provider.name })}</p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
