import type { ExternalProvider } from '@palisade/contracts';
import type { ChangeEvent } from 'react';
import { Badge } from '@/components/Badge';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import type { FieldIssue } from '@/lib/field-errors';

/** The credentials the directory APIs need that sign-in does not (the secrets are write-only). */
// A type, not an interface: form values must be assignable to Record<string, unknown>.
export type DirectoryCredentials = {
  admin_email: string;
  /** The uploaded key file's text; '' keeps the stored one. */
  google_service_account_key: string;
  okta_client_id: string;
  /** '' keeps the stored key. */
  okta_private_jwk: string;
  /** '' keeps the stored key. */
  jumpcloud_api_key: string;
};

interface Props {
  provider: ExternalProvider;
  values: DirectoryCredentials;
  errors: Record<string, FieldIssue | undefined>;
  onChange: <K extends keyof DirectoryCredentials>(name: K, value: DirectoryCredentials[K]) => void;
}

/** Per kind: Google a key file and the admin to act for, Okta a service app and its JWK, JumpCloud an API key. */
export function DirectorySyncSectionCredentials({ provider, values, errors, onChange }: Props) {
  const { t } = useTranslation();
  const stored = (isSet: boolean) => (isSet ? <Badge tone="success">{t('settings.directorySync.secretSet')}</Badge> : undefined);
  const readKeyFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    onChange('google_service_account_key', file ? await file.text() : '');
  };
  switch (provider.kind) {
    case 'Google':
      return (
        <>
          <TextField
            label={t('settings.directorySync.adminEmail')}
            hint={t('settings.directorySync.adminEmailHint')}
            name="admin_email"
            type="email"
            value={values.admin_email}
            onValueChange={(v) => onChange('admin_email', v)}
            error={errors.admin_email}
          />
          <div className="field">
            <label className="field__label" htmlFor="directory-sync-key-file">
              {t('settings.directorySync.keyFile')} {stored(provider.google_service_account_key_set)}{' '}
              {values.google_service_account_key ? <Badge tone="primary">{t('settings.directorySync.keyFileChosen')}</Badge> : null}
            </label>
            <input id="directory-sync-key-file" type="file" accept=".json,application/json" onChange={(e) => void readKeyFile(e)} />
            <p className="field__hint">{t('settings.directorySync.keyFileHint')}</p>
          </div>
        </>
      );
    case 'Okta':
      return (
        <>
          <TextField
            label={t('settings.directorySync.oktaClientId')}
            name="okta_client_id"
            autoComplete="off"
            spellCheck={false}
            value={values.okta_client_id}
            onValueChange={(v) => onChange('okta_client_id', v)}
            error={errors.okta_client_id}
          />
          <TextField
            label={t('settings.directorySync.oktaJwk')}
            hint={t('settings.directorySync.secretHint')}
            name="okta_private_jwk"
            type="password"
            autoComplete="new-password"
            isOptional={provider.okta_private_jwk_set}
            status={stored(provider.okta_private_jwk_set)}
            value={values.okta_private_jwk}
            onValueChange={(v) => onChange('okta_private_jwk', v)}
            error={errors.okta_private_jwk}
          />
        </>
      );
    case 'JumpCloud':
      return (
        <TextField
          label={t('settings.directorySync.jumpcloudApiKey')}
          hint={t('settings.directorySync.secretHint')}
          name="jumpcloud_api_key"
          type="password"
          autoComplete="new-password"
          isOptional={provider.jumpcloud_api_key_set}
          status={stored(provider.jumpcloud_api_key_set)}
          value={values.jumpcloud_api_key}
          onValueChange={(v) => onChange('jumpcloud_api_key', v)}
          error={errors.jumpcloud_api_key}
        />
      );
    default:
      return <p className="field__hint form-grid__wide">{t('settings.directorySync.microsoftHint')}</p>;
  }
}
