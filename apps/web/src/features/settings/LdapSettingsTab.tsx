import { ApiError, unwrap } from '@palisade/api-client';
import {
  LDAP_AUTHORITATIVE_SOURCES,
  LDAP_REMOVED_USER_BEHAVIORS,
  type LdapAuthoritativeSource,
  type LdapRemovedUserBehavior,
  type Settings,
  UpdateSettingsBodySchema,
} from '@palisade/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import { TagInput } from '@/components/TagInput';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import type { Translate } from '@/i18n/translate';
import { useTranslation } from '@/i18n/use-translation';
import { api } from '@/lib/api';
import { problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { CertificateField } from './CertificateField';
import { SettingsSection } from './SettingsSection';
import { SettingsFormActions, useSettingsLeaveGuard } from './SettingsFormActions';
import { StoredPasswordField, storedPasswordBody } from './StoredPasswordField';
import { settingsQueryOptions } from './settings.queries';
import { useUpdateSmtpSettings as useUpdateSettings } from './smtp.mutations';
import { LdapSyncCard } from './LdapSyncCard';

const LdapBodySchema = UpdateSettingsBodySchema.pick({
  ldap_enabled: true,
  ldap_url: true,
  ldap_bind_username: true,
  ldap_bind_password: true,
  ldap_use_starttls: true,
  ldap_tls_verify_cert: true,
  ldap_tls_ca_cert: true,
  ldap_uses_ad: true,
  ldap_user_search_base: true,
  ldap_username_attr: true,
  ldap_user_rdn_attr: true,
  ldap_user_obj_class: true,
  ldap_user_auxiliary_obj_classes: true,
  ldap_member_attr: true,
  ldap_group_search_base: true,
  ldap_groupname_attr: true,
  ldap_group_obj_class: true,
  ldap_group_member_attr: true,
  ldap_sync_groups: true,
  ldap_sync_enabled: true,
  ldap_authoritative_source: true,
  ldap_sync_interval: true,
  ldap_removed_user_behavior: true,
});

type TextKey =
  | 'ldap_url'
  | 'ldap_bind_username'
  | 'ldap_bind_password'
  | 'ldap_user_search_base'
  | 'ldap_username_attr'
  | 'ldap_user_rdn_attr'
  | 'ldap_user_obj_class'
  | 'ldap_member_attr'
  | 'ldap_group_search_base'
  | 'ldap_groupname_attr'
  | 'ldap_group_obj_class'
  | 'ldap_group_member_attr'
  | 'ldap_sync_interval';
type FlagKey = 'ldap_enabled' | 'ldap_use_starttls' | 'ldap_tls_verify_cert' | 'ldap_uses_ad' | 'ldap_sync_enabled';

export type LdapFormValues = Record<TextKey, string> &
  Record<FlagKey, boolean> & {
    ldap_tls_ca_cert: string;
    ldap_user_auxiliary_obj_classes: string[];
    ldap_sync_groups: string[];
    ldap_authoritative_source: LdapAuthoritativeSource;
    ldap_removed_user_behavior: LdapRemovedUserBehavior;
  };

const formValues = (s: Settings): LdapFormValues => ({
  ldap_enabled: s.ldap_enabled,
  ldap_url: s.ldap_url ?? '',
  ldap_bind_username: s.ldap_bind_username ?? '',
  // Empty keeps the stored password.
  ldap_bind_password: '',
  ldap_use_starttls: s.ldap_use_starttls,
  ldap_tls_verify_cert: s.ldap_tls_verify_cert,
  ldap_tls_ca_cert: s.ldap_tls_ca_cert ?? '',
  ldap_uses_ad: s.ldap_uses_ad,
  ldap_user_search_base: s.ldap_user_search_base ?? '',
  ldap_username_attr: s.ldap_username_attr ?? '',
  ldap_user_rdn_attr: s.ldap_user_rdn_attr ?? '',
  ldap_user_obj_class: s.ldap_user_obj_class ?? '',
  ldap_user_auxiliary_obj_classes: s.ldap_user_auxiliary_obj_classes ?? [],
  ldap_member_attr: s.ldap_member_attr ?? '',
  ldap_group_search_base: s.ldap_group_search_base ?? '',
  ldap_groupname_attr: s.ldap_groupname_attr ?? '',
  ldap_group_obj_class: s.ldap_group_obj_class ?? '',
  ldap_group_member_attr: s.ldap_group_member_attr ?? '',
  ldap_sync_groups: s.ldap_sync_groups ?? [],
  ldap_sync_enabled: s.ldap_sync_enabled,
  ldap_authoritative_source: s.ldap_authoritative_source,
  ldap_sync_interval: String(s.ldap_sync_interval),
  ldap_removed_user_behavior: s.ldap_removed_user_behavior,
});

const toBody = (v: LdapFormValues, removePassword: boolean) => {
  const { ldap_bind_password, ldap_sync_interval, ...rest } = v;
  const interval = ldap_sync_interval.trim();
  return {
    ...rest,
    ldap_sync_interval: /^\d+$/.test(interval) ? Number(interval) : Number.NaN,
    ...storedPasswordBody('ldap_bind_password', ldap_bind_password, removePassword),
  };
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** GET /ldap/test with the saved settings: resolves on success, rejects with the API's problem. */
function useTestLdapConnection() {
  return useMutation({
    mutationFn: async () => unwrap(api.GET('/api/v1/ldap/test', {})),
  });
}

/** Settings › LDAP: the directory server, its schema, sign-in with LDAP passwords, and a connection test. */
export function LdapSettingsTab() {
  const { t } = useTranslation();
  const settings = useQuery(settingsQueryOptions);
  const update = useUpdateSettings();
  if (settings.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (settings.isError) return <StateMessage kind="error" title={t('settings.loadError')} onRetry={() => void settings.refetch()} />;
  return <LdapSettingsForm key={settings.dataUpdatedAt} settings={settings.data} update={update} />;
}

function LdapSettingsForm({ settings, update }: { settings: Settings; update: ReturnType<typeof useUpdateSettings> }) {
  const { t } = useTranslation();
  const saved = formValues(settings);
  const form = useZodForm(LdapBodySchema, saved);
  const [removePassword, setRemovePassword] = useState(false);
  const isDirty = removePassword || (Object.keys(saved) as (keyof LdapFormValues)[]).some((k) => !same(form.values[k], saved[k]));
  useSettingsLeaveGuard(isDirty);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(toBody(form.values, removePassword));
    if (!body) return;
    update.mutate(body, {
      onSuccess: () => pushToast({ id: 'ldap-saved', kind: 'success', message: t('settings.saved') }),
      onError: (error) => form.applyServerError(error),
    });
  };

  const text = (name: TextKey) => ({
    name,
    value: form.values[name],
    onValueChange: (v: string) => form.setValue(name, v),
    error: form.errors[name],
    autoComplete: 'off',
    spellCheck: false,
  });
  const flag = (name: FlagKey) => ({
    name,
    checked: form.values[name],
    onCheckedChange: (v: boolean) => form.setValue(name, v),
  });
  const sourceLabel: Record<LdapAuthoritativeSource, string> = {
    ldap: t('ldap.authoritative.ldap'),
    palisade: t('ldap.authoritative.palisade'),
  };
  const removedLabel: Record<LdapRemovedUserBehavior, string> = {
    disable: t('ldap.removed.disable'),
    delete: t('ldap.removed.delete'),
  };

  return (
    <>
      <form className="settings" onSubmit={onSubmit} noValidate aria-label={t('settings.tab.ldap')}>
        <SettingsSection titleId="ldap-connection-title" title={t('ldap.connection.title')} hint={t('ldap.connection.hint')}>
          <div className="form-grid__wide">
            <CheckboxField label={t('ldap.enabled')} hint={t('ldap.enabledHint')} {...flag('ldap_enabled')} />
          </div>
          <TextField label={t('ldap.url')} placeholder="ldaps://ldap.example.com:636" {...text('ldap_url')} />
          <TextField
            label={t('ldap.bindUsername')}
            isOptional
            placeholder="cn=palisade,dc=example,dc=com"
            {...text('ldap_bind_username')}
          />
          <StoredPasswordField
            labels={{
              label: t('ldap.bindPassword'),
              keepHint: t('ldap.bindPasswordKeepHint'),
              isSet: t('ldap.bindPasswordSet'),
              keep: t('ldap.bindPasswordKeep'),
              remove: t('ldap.bindPasswordRemove'),
            }}
            name="ldap_bind_password"
            value={form.values.ldap_bind_password}
            onValueChange={(v) => form.setValue('ldap_bind_password', v)}
            error={form.errors.ldap_bind_password}
            isSet={Boolean(settings.ldap_bind_password_set)}
            isRemoved={removePassword}
            onRemovedChange={setRemovePassword}
          />
          <div className="form-grid__stack">
            <CheckboxField label={t('ldap.startTls')} hint={t('ldap.startTlsHint')} {...flag('ldap_use_starttls')} />
            <CheckboxField label={t('ldap.verifyCert')} hint={t('ldap.verifyCertHint')} {...flag('ldap_tls_verify_cert')} />
            <CheckboxField label={t('ldap.usesAd')} hint={t('ldap.usesAdHint')} {...flag('ldap_uses_ad')} />
          </div>
          <CertificateField
            name="ldap_tls_ca_cert"
            label="ldap.caCert"
            hint="ldap.caCertHint"
            value={form.values.ldap_tls_ca_cert}
            onValueChange={(v) => form.setValue('ldap_tls_ca_cert', v)}
            error={form.errors.ldap_tls_ca_cert}
          />
        </SettingsSection>

        <SettingsSection titleId="ldap-schema-title" title={t('ldap.schema.title')} hint={t('ldap.schema.hint')}>
          <TextField label={t('ldap.userSearchBase')} placeholder="ou=people,dc=example,dc=com" {...text('ldap_user_search_base')} />
          <TextField label={t('ldap.usernameAttr')} {...text('ldap_username_attr')} />
          <TextField label={t('ldap.userRdnAttr')} isOptional hint={t('ldap.userRdnAttrHint')} {...text('ldap_user_rdn_attr')} />
          <TextField label={t('ldap.userObjClass')} {...text('ldap_user_obj_class')} />
          <TagInput
            label={t('ldap.userAuxObjClasses')}
            isOptional
            values={form.values.ldap_user_auxiliary_obj_classes}
            onValuesChange={(v) => form.setValue('ldap_user_auxiliary_obj_classes', v)}
            error={form.errors.ldap_user_auxiliary_obj_classes}
          />
          <TextField label={t('ldap.memberAttr')} {...text('ldap_member_attr')} />
          <TextField label={t('ldap.groupSearchBase')} placeholder="ou=groups,dc=example,dc=com" {...text('ldap_group_search_base')} />
          <TextField label={t('ldap.groupnameAttr')} {...text('ldap_groupname_attr')} />
          <TextField label={t('ldap.groupObjClass')} {...text('ldap_group_obj_class')} />
          <TextField label={t('ldap.groupMemberAttr')} {...text('ldap_group_member_attr')} />
          <TagInput
            className="form-grid__wide"
            label={t('ldap.syncGroups')}
            isOptional
            hint={t('ldap.syncGroupsHint')}
            values={form.values.ldap_sync_groups}
            onValuesChange={(v) => form.setValue('ldap_sync_groups', v)}
            error={form.errors.ldap_sync_groups}
          />
        </SettingsSection>

        <SettingsSection titleId="ldap-sync-title" title={t('ldap.sync.title')} hint={t('ldap.sync.hint')}>
          <div className="form-grid__wide">
            <CheckboxField label={t('ldap.syncEnabled')} {...flag('ldap_sync_enabled')} />
          </div>
          <SelectField
            label={t('ldap.authoritativeSource')}
            value={form.values.ldap_authoritative_source}
            options={LDAP_AUTHORITATIVE_SOURCES.map((value) => ({ value, label: sourceLabel[value] }))}
            onValueChange={(v) => form.setValue('ldap_authoritative_source', v)}
          />
          <TextField label={t('ldap.syncInterval')} inputMode="numeric" {...text('ldap_sync_interval')} />
          <SelectField
            label={t('ldap.removedUserBehavior')}
            value={form.values.ldap_removed_user_behavior}
            options={LDAP_REMOVED_USER_BEHAVIORS.map((value) => ({ value, label: removedLabel[value] }))}
            onValueChange={(v) => form.setValue('ldap_removed_user_behavior', v)}
          />
        </SettingsSection>

        <SettingsFormActions
          isDirty={isDirty}
          isSaving={update.isPending}
          error={form.formError}
          onReset={() => {
            setRemovePassword(false);
            form.reset(saved);
          }}
        />
      </form>
      <LdapTestCard isDirty={isDirty} />
      <LdapSyncCard />
    </>
  );
}

/** "LDAP connection rejected: <the server's reason>" (the reason as the API words it), or the problem's own text. */
function rejectedMessage(t: Translate, error: unknown): string {
  if (!(error instanceof ApiError) || error.code !== 'ldap.connection_rejected') return problemMessage(t, error);
  const reason = (error.problem.detail ?? '').replace(/^LDAP connection rejected:\s*/, '');
  return reason ? `${t('error.ldap.connection_rejected')}: ${reason}` : t('error.ldap.connection_rejected');
}

/** Tests the saved settings: "Connection successful" or the server's reason for refusing. */
function LdapTestCard({ isDirty }: { isDirty: boolean }) {
  const { t } = useTranslation();
  const test = useTestLdapConnection();
  const result = test.isSuccess ? (
    <p className="banner banner--info" role="status">
      {t('ldap.testSuccess')}
    </p>
  ) : (
    <FormErrorBanner error={test.error} describe={rejectedMessage} />
  );
  return (
    <section className="card" aria-labelledby="ldap-test-title">
      <div className="card__header">
        <h2 id="ldap-test-title" className="card__title">
          {t('ldap.testTitle')}
        </h2>
      </div>
      <div className="card__body form-grid">
        <p className="field__hint">{isDirty ? t('ldap.testSaveFirst') : t('ldap.testHint')}</p>
        <div>
          <Button variant="primary" isLoading={test.isPending} disabled={isDirty} onClick={() => test.mutate()}>
            {t('ldap.testButton')}
          </Button>
        </div>
        {result}
      </div>
    </section>
  );
}
