import { ACL_ALIAS_KINDS, ACL_PROTOCOLS, type AclAlias, AclAliasBodySchema } from '@palisade/contracts';
import { useId } from 'react';
import { FormDialog } from '@/components/FormDialog';
import { TagInput } from '@/components/TagInput';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { CheckList } from './CheckList';
import { useCreateAclAlias, useUpdateAclAlias } from './acl.mutations';
import { aliasBody, aliasFormValues } from './alias-form';
import { fieldIssue } from './rule-form';

/** Spec §2 alias create/edit dialog; a change of a deployed alias stays pending until deployed. */
export function AliasDialog({ alias, onClose }: { alias?: AclAlias; onClose: () => void }) {
  const { t } = useTranslation();
  const radioId = useId();
  const isNew = alias === undefined;
  const create = useCreateAclAlias();
  const update = useUpdateAclAlias();
  const form = useZodForm(AclAliasBodySchema, aliasFormValues(alias));
  const v = form.values;

  const onError = (error: unknown) => {
    if (!form.applyServerError(error)) pushToast({ id: 'acl-alias-save-error', kind: 'error', message: problemMessage(t, error) });
  };
  const onSaved = (saved: AclAlias) => {
    const message = saved.state === 'changed' ? t('acl.alias.savedPending') : t(isNew ? 'acl.alias.created' : 'acl.alias.saved');
    pushToast({ id: `acl-alias-saved-${saved.id}`, kind: 'success', message });
    onClose();
  };
  const onSubmit = () => {
    const body = form.validate(aliasBody(v));
    if (!body) return;
    if (isNew) create.mutate(body, { onSuccess: onSaved, onError });
    else update.mutate({ id: alias.id, body }, { onSuccess: onSaved, onError });
  };

  const title = isNew ? t('acl.alias.add') : t('acl.alias.edit');
  return (
    <FormDialog title={title} isSaving={create.isPending || update.isPending} onClose={onClose} onSubmit={onSubmit}>
      <TextField
        label={t('acl.alias.name')}
        name="name"
        className="form-grid__wide"
        autoComplete="off"
        value={v.name}
        onValueChange={(x) => form.setValue('name', x)}
        error={form.errors.name}
      />
      <fieldset className="field form-grid__wide check-list">
        <legend className="field__label">{t('acl.alias.kind')}</legend>
        {ACL_ALIAS_KINDS.map((kind) => (
          <div key={kind} className="checkbox-field">
            <input
              id={`${radioId}-${kind}`}
              type="radio"
              name="kind"
              className="checkbox"
              checked={v.kind === kind}
              onChange={() => form.setValue('kind', kind)}
              aria-describedby={`${radioId}-${kind}-hint`}
            />
            <div>
              <label htmlFor={`${radioId}-${kind}`} className="checkbox-field__label">
                {t(`acl.alias.kind.${kind}`)}
              </label>
              <p id={`${radioId}-${kind}-hint`} className="field__hint">
                {t(`acl.alias.kindHint.${kind}`)}
              </p>
            </div>
          </div>
        ))}
      </fieldset>
      <TagInput
        label={t('acl.alias.destinations')}
        className="form-grid__wide"
        placeholder="10.0.0.0/24, 10.1.0.5-10.1.0.9"
        hint={t('acl.rule.destinationsHint')}
        values={v.destinations}
        onValuesChange={(x) => form.setValue('destinations', x)}
        error={fieldIssue(form.errors, 'destinations')}
      />
      <TagInput
        label={t('acl.alias.ports')}
        placeholder="443, 8000-8100"
        hint={t('acl.rule.portsHint')}
        values={v.ports}
        onValuesChange={(x) => form.setValue('ports', x)}
        error={fieldIssue(form.errors, 'ports')}
      />
      <CheckList
        legend={t('acl.alias.protocols')}
        options={ACL_PROTOCOLS.map((p) => ({ value: p, label: p.toUpperCase() }))}
        value={v.protocols}
        onChange={(x) => form.setValue('protocols', x)}
        emptyText=""
        error={fieldIssue(form.errors, 'protocols')}
      />
    </FormDialog>
  );
}
