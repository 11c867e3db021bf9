import type { OAuthClient, OAuthClientWithSecret } from '@palisade/contracts';
import { CheckboxField } from '@/components/CheckboxField';
import { FormDialog } from '@/components/FormDialog';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { listIssue, openIdAppBody, openIdAppFormValues, openIdAppSchema } from './openid-app-form';
import { useCreateOpenIdApp, useUpdateOpenIdApp } from './openid-apps.mutations';
import { RedirectUrisField } from './RedirectUrisField';
import { ScopesField } from './ScopesField';

interface OpenIdAppDialogProps {
  app?: OAuthClient;
  onClose: () => void;
  /** A new confidential app (or a public one made confidential): its secret, to show once now. */
  onSecret: (app: OAuthClient, secret: string) => void;
}

/** Add (POST /oauth) or edit (PUT /oauth/{id}) an OpenID app, validated as the API validates (spec §5). */
export function OpenIdAppDialog({ app, onClose, onSecret }: OpenIdAppDialogProps) {
  const { t } = useTranslation();
  const isNew = app === undefined;
  const create = useCreateOpenIdApp();
  const update = useUpdateOpenIdApp();
  const form = useZodForm(openIdAppSchema(isNew), openIdAppFormValues(app));
  const v = form.values;

  const onError = (error: unknown) => {
    if (!form.applyServerError(error)) pushToast({ id: 'openid-app-save-error', kind: 'error', message: problemMessage(t, error) });
  };
  const onSaved = ({ client_secret: secret, ...saved }: OAuthClientWithSecret) => {
    pushToast({
      id: `openid-app-saved-${saved.client_id}`,
      kind: 'success',
      message: t(isNew ? 'openidApps.toast.created' : 'openidApps.toast.saved'),
    });
    onClose();
    if (secret) onSecret(saved, secret);
  };

  const onSubmit = () => {
    const body = form.validate(openIdAppBody(v, isNew));
    if (!body) return;
    if (isNew) create.mutate({ ...body, enabled: v.enabled }, { onSuccess: onSaved, onError });
    else update.mutate({ id: app.client_id, body }, { onSuccess: onSaved, onError });
  };

  const title = isNew ? t('openidApps.add') : t('openidApps.edit');
  return (
    <FormDialog title={title} isSaving={create.isPending || update.isPending} onClose={onClose} onSubmit={onSubmit}>
      <TextField
        label={t('openidApps.name')}
        name="name"
        className="form-grid__wide"
        autoComplete="off"
        value={v.name}
        onValueChange={(value) => form.setValue('name', value)}
        error={form.errors.name}
      />
      <RedirectUrisField value={v.redirect_uris} onValueChange={(value) => form.setValue('redirect_uris', value)} errors={form.errors} />
      <ScopesField value={v.scopes} onValueChange={(value) => form.setValue('scopes', value)} error={listIssue(form.errors, 'scopes')} />
      <CheckboxField
        name="public"
        label={t('openidApps.public')}
        hint={t(isNew || app.public ? 'openidApps.publicHint' : 'openidApps.publicEditHint')}
        checked={v.public}
        onCheckedChange={(value) => form.setValue('public', value)}
      />
      {isNew ? (
        <CheckboxField
          name="enabled"
          label={t('openidApps.enabled')}
          checked={v.enabled}
          onCheckedChange={(value) => form.setValue('enabled', value)}
        />
      ) : null}
    </FormDialog>
  );
}
