import type { Webhook } from '@palisade/contracts';
import { type FormEvent, useId } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { WebhookTokenField } from './WebhookTokenField';
import { WebhookTriggersField } from './WebhookTriggersField';
import { webhookBody, webhookFormValues, webhookSchema } from './webhook-form';
import { useCreateWebhook, useUpdateWebhook } from './webhooks.mutations';

/**
 * Add (POST /webhook) or edit (PUT /webhook/{id}). The URL's reachability (the SSRF guard and the
 * egress allow-list) is the server's to judge: `url.blocked` comes back on the URL field.
 */
export function WebhookDialog({ webhook, onClose }: { webhook?: Webhook; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const isNew = webhook === undefined;
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const form = useZodForm(webhookSchema(isNew), webhookFormValues(webhook));
  const v = form.values;

  const onError = (error: unknown) => {
    if (!form.applyServerError(error)) pushToast({ id: 'webhook-save-error', kind: 'error', message: problemMessage(t, error) });
  };
  const onSaved = (saved: Webhook) => {
    pushToast({ id: `webhook-saved-${saved.id}`, kind: 'success', message: t(isNew ? 'webhooks.toast.created' : 'webhooks.toast.saved') });
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(webhookBody(v, isNew));
    if (!body) return;
    if (isNew) create.mutate({ ...body, token: v.token }, { onSuccess: onSaved, onError });
    else update.mutate({ id: webhook.id, body }, { onSuccess: onSaved, onError });
  };

  return (
    <Dialog
      title={isNew ? t('webhooks.add') : t('webhooks.edit')}
      isOpen
      onClose={onClose}
      footer={
        <FormDialogFooter
          formId={formId}
          submitLabel={t('common.save')}
          isSaving={create.isPending || update.isPending}
          onCancel={onClose}
        />
      }
    >
      <form
        id={formId}
        className="form-grid form-grid--2"
        onSubmit={onSubmit}
        noValidate
        aria-label={isNew ? t('webhooks.add') : t('webhooks.edit')}
      >
        <TextField
          label={t('webhooks.url')}
          name="url"
          type="url"
          placeholder="https://hooks.example.com/palisade"
          className="form-grid__wide"
          autoComplete="off"
          hint={t('webhooks.urlHint')}
          value={v.url}
          onValueChange={(value) => form.setValue('url', value)}
          error={form.errors.url}
        />
        <TextField
          label={t('webhooks.description')}
          name="description"
          className="form-grid__wide"
          isOptional
          value={v.description}
          onValueChange={(value) => form.setValue('description', value)}
          error={form.errors.description}
        />
        <WebhookTokenField
          value={v.token}
          onValueChange={(value) => form.setValue('token', value)}
          error={form.errors.token}
          isNew={isNew}
        />
        <WebhookTriggersField
          value={v.triggers}
          onValueChange={(value) => form.setValue('triggers', value)}
          error={form.errors.triggers ?? Object.entries(form.errors).find(([path]) => path.startsWith('triggers.'))?.[1]}
        />
        <CheckboxField
          name="enabled"
          label={t('webhooks.enabled')}
          checked={v.enabled}
          onCheckedChange={(value) => form.setValue('enabled', value)}
        />
      </form>
    </Dialog>
  );
}
