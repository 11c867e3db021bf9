import { type AclRuleBody, AclRuleBodySchema } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { locationsQueryOptions } from '@/features/locations/locations.queries';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { hasChanges, useLeaveGuard } from '@/lib/use-leave-guard';
import { useZodForm, withoutField } from '@/lib/use-zod-form';
import { CheckList } from './CheckList';
import { RuleTrafficFields } from './RuleTrafficFields';
import { RuleMembersFields } from './RuleMembersFields';
import { ALLOWED_FIELDS, DENIED_FIELDS, fieldIssue, ruleBody, type RuleFormValues } from './rule-form';

interface RuleFormProps {
  initial: RuleFormValues;
  isPending: boolean;
  /** Saves; resolves with the server's error, if any (field errors land on their fields). */
  onSubmit: (body: AclRuleBody) => Promise<unknown>;
}

/** Every field of a rule (spec §3), checked as the API checks it (spec §5) before it is sent. */
export function RuleForm({ initial, isPending, onSubmit }: RuleFormProps) {
  const { t } = useTranslation();
  const form = useZodForm(AclRuleBodySchema, initial);
  const [banner, setBanner] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(initial);
  const locations = useQuery(locationsQueryOptions);
  const v = form.values;
  useLeaveGuard(hasChanges(v, saved), t('form.leaveWarning'));

  // A side's one message (allowDenyConflict, allowNotConfigured) goes once any of its members changes.
  const setValue = <K extends keyof RuleFormValues>(name: K, value: RuleFormValues[K]) => {
    form.setValue(name, value);
    for (const side of [ALLOWED_FIELDS, DENIED_FIELDS]) {
      if (side.includes(name)) form.setErrors((e) => side.reduce(withoutField, e));
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(undefined);
    const body = form.validate(ruleBody(v));
    if (!body) return;
    const error = await onSubmit(body);
    if (!error) return setSaved(v);
    if (!form.applyServerError(error)) setBanner(problemMessage(t, error));
  };

  return (
    <form className="acl-form" onSubmit={submit} noValidate aria-label={t('acl.rule.formLabel')}>
      <FormErrorBanner>{banner}</FormErrorBanner>
      <fieldset className="card acl-form__section form-grid">
        <legend className="acl-form__legend">{t('acl.rule.general')}</legend>
        <TextField
          label={t('acl.rule.name')}
          name="name"
          autoComplete="off"
          value={v.name}
          onValueChange={(x) => setValue('name', x)}
          error={form.errors.name}
        />
        <TextField
          label={t('acl.rule.priority')}
          name="priority"
          inputMode="numeric"
          value={v.priority}
          onValueChange={(x) => setValue('priority', x)}
          error={form.errors.priority}
          hint={t('acl.rule.priorityHint')}
        />
        <TextField
          label={t('acl.rule.expires')}
          name="expires"
          type="datetime-local"
          isOptional
          value={v.expires}
          onValueChange={(x) => setValue('expires', x)}
          error={form.errors.expires}
          hint={t('acl.rule.expiresHint')}
        />
        <CheckboxField
          name="enabled"
          label={t('acl.rule.enabled')}
          hint={t('acl.rule.enabledHint')}
          checked={v.enabled}
          onCheckedChange={(x) => setValue('enabled', x)}
        />
      </fieldset>
      <fieldset className="card acl-form__section">
        <legend className="acl-form__legend">{t('acl.rule.locations')}</legend>
        <CheckboxField
          name="all_locations"
          label={t('acl.rule.allLocations')}
          checked={v.all_locations}
          onCheckedChange={(x) => setValue('all_locations', x)}
        />
        <CheckList
          legend={t('acl.rule.chooseLocations')}
          options={(locations.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
          value={v.locations}
          onChange={(x) => setValue('locations', x)}
          emptyText={t('acl.rule.noLocations')}
          isPending={locations.isPending}
          isDisabled={v.all_locations}
          error={fieldIssue(form.errors, 'locations')}
        />
      </fieldset>
      <RuleMembersFields side="allow" values={v} setValue={setValue} errors={form.errors} />
      <RuleMembersFields side="deny" values={v} setValue={setValue} errors={form.errors} />
      <RuleTrafficFields values={v} setValue={setValue} errors={form.errors} />
      <div className="form-actions">
        <Link to="/acl" className="btn btn--secondary">
          {t('common.cancel')}
        </Link>
        <Button type="submit" variant="primary" isLoading={isPending}>
          {t('acl.rule.save')}
        </Button>
      </div>
    </form>
  );
}
