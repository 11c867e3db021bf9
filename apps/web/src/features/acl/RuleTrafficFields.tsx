import { ACL_PROTOCOLS } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { TagInput } from '@/components/TagInput';
import { useTranslation } from '@/i18n/use-translation';
import type { FieldIssues } from '@/lib/field-errors';
import { CheckList } from './CheckList';
import { aclAliasesQueryOptions } from './acl.queries';
import { currentAliases } from './alias-form';
import { fieldIssue, type RuleFormValues } from './rule-form';

interface RuleTrafficFieldsProps {
  values: RuleFormValues;
  setValue: <K extends keyof RuleFormValues>(name: K, value: RuleFormValues[K]) => void;
  errors: FieldIssues;
}

/** What a rule selects (spec §3): destinations, aliases (by their deployed id), ports, protocols. */
export function RuleTrafficFields({ values: v, setValue, errors }: RuleTrafficFieldsProps) {
  const { t } = useTranslation();
  const aliases = useQuery(aclAliasesQueryOptions);
  const list = (name: 'destinations' | 'ports') => ({
    values: v[name],
    onValuesChange: (values: string[]) => setValue(name, values),
    error: fieldIssue(errors, name),
  });
  return (
    <fieldset className="card acl-form__section">
      <legend className="acl-form__legend">{t('acl.rule.traffic')}</legend>
      <p className="field__hint">{t('acl.rule.trafficHint')}</p>
      <TagInput
        label={t('acl.rule.destinations')}
        placeholder="10.0.0.0/24, 10.1.0.5-10.1.0.9"
        isOptional
        hint={t('acl.rule.destinationsHint')}
        {...list('destinations')}
      />
      <CheckList
        legend={t('acl.rule.aliases')}
        options={currentAliases(aliases.data ?? []).map((a) => ({
          value: a.parent_id ?? a.id,
          label: a.name,
          hint: t(`acl.alias.kind.${a.kind}`),
        }))}
        value={v.aliases}
        onChange={(x) => setValue('aliases', x)}
        emptyText={t('acl.rule.noAliases')}
        isPending={aliases.isPending}
        error={fieldIssue(errors, 'aliases')}
      />
      <TagInput label={t('acl.rule.ports')} placeholder="443, 8000-8100" isOptional hint={t('acl.rule.portsHint')} {...list('ports')} />
      <CheckList
        legend={t('acl.rule.protocols')}
        options={ACL_PROTOCOLS.map((p) => ({ value: p, label: p.toUpperCase() }))}
        value={v.protocols}
        onChange={(x) => setValue('protocols', x)}
        emptyText=""
        error={fieldIssue(errors, 'protocols')}
      />
    </fieldset>
  );
}
