import { CreateGroupBodySchema, type GroupInfo, type UpdateGroupBody } from '@palisade/contracts';
import { type FormEvent, useId, useState } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { AdminChangeConfirm } from './AdminChangeConfirm';
import { type AdminImpact, withGroupChanged } from './admin-change';
import { useCreateGroup, useUpdateGroup } from './groups.mutations';
import { useAdminChange } from './use-admin-change';

/** Create (POST /group) or rename / toggle the admin flag (PUT /group/{name}). */
export function GroupDialog({ group, onClose }: { group?: GroupInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const form = useZodForm(CreateGroupBodySchema, { name: group?.name ?? '', is_admin: group?.is_admin ?? false });
  const isPending = create.isPending || update.isPending;

  const onError = (error: unknown) => {
    if (hasCode(error, 'group.name_taken')) form.setErrors({ name: { code: 'name_taken' } });
    else if (!form.applyServerError(error)) pushToast({ id: 'group-save-error', kind: 'error', message: problemMessage(t, error) });
  };
  const onSaved = (name: string, isNew: boolean) => {
    pushToast({ id: `group-saved-${name}`, kind: 'success', message: t(isNew ? 'groups.toast.created' : 'groups.toast.saved', { name }) });
    onClose();
  };

  const { assess, leaveAdmin } = useAdminChange();
  const [asking, setAsking] = useState<{ body: UpdateGroupBody; impact: AdminImpact } | undefined>(undefined);

  const save = (name: string, body: UpdateGroupBody, isSelfDemotion: boolean) =>
    update.mutate(
      { name, body, ...(isSelfDemotion ? { after: leaveAdmin } : {}) },
      { onSuccess: (g) => onSaved(g.name, false), onError, onSettled: () => setAsking(undefined) },
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(form.values);
    if (!body) return;
    if (!group) return create.mutate(body, { onSuccess: (g) => onSaved(g.name, true), onError });
    // Clearing the admin flag may take the own rights; setting it gives them to every member.
    const impact = assess((all) => withGroupChanged(all, group.name, { name: body.name, is_admin: body.is_admin ?? group.is_admin }));
    if (impact) setAsking({ body, impact });
    else save(group.name, body, false);
  };

  return (
    <Dialog
      title={group ? t('groups.editNamed', { name: group.name }) : t('groups.add')}
      isOpen
      onClose={onClose}
      size="sm"
      footer={<FormDialogFooter formId={formId} submitLabel={t('common.save')} isSaving={isPending} onCancel={onClose} />}
    >
      <form id={formId} className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('groups.name')}
          name="name"
          autoComplete="off"
          value={form.values.name}
          onValueChange={(v) => form.setValue('name', v)}
          error={form.errors.name}
        />
        <CheckboxField label={t('groups.isAdmin')} checked={form.values.is_admin} onCheckedChange={(v) => form.setValue('is_admin', v)} />
      </form>
      <AdminChangeConfirm
        impact={asking?.impact}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => group && asking && save(group.name, asking.body, asking.impact?.kind === 'self')}
        isPending={update.isPending}
      />
    </Dialog>
  );
}
