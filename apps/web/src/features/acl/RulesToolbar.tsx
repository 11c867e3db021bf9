import type { AclRule, Network } from '@palisade/contracts';
import { SearchField } from '@/components/SearchField';
import { SelectField } from '@/components/SelectField';
import { useTranslation } from '@/i18n/use-translation';
import { memberOptions, RULE_STATUS_FILTERS, type RuleFilters, ruleStatusLabel } from './rule-list';

interface RulesToolbarProps {
  rules: readonly AclRule[];
  locations: readonly Network[];
  filters: RuleFilters;
  onFiltersChange: (filters: RuleFilters) => void;
}

/** Spec §2 ACL filters: status, location, user/group (those the rules name) and a search. */
export function RulesToolbar({ rules, locations, filters, onFiltersChange }: RulesToolbarProps) {
  const { t } = useTranslation();
  const set = <K extends keyof RuleFilters>(key: K, value: RuleFilters[K]) => onFiltersChange({ ...filters, [key]: value });
  const members = memberOptions(rules);
  return (
    <div className="toolbar acl-toolbar">
      <SearchField
        id="acl-rule-search"
        label={t('acl.rules.search')}
        placeholder={t('acl.rules.searchPlaceholder')}
        value={filters.search}
        onValueChange={(value) => set('search', value)}
      />
      <SelectField
        label={t('acl.filter.status')}
        className="toolbar__filter"
        value={filters.status}
        options={RULE_STATUS_FILTERS.map((value) => ({
          value,
          label: value === 'all' ? t('acl.filter.anyStatus') : t(ruleStatusLabel(value)),
        }))}
        onValueChange={(value) => set('status', value)}
      />
      <SelectField
        label={t('acl.filter.location')}
        className="toolbar__filter"
        value={filters.location}
        options={[{ value: '', label: t('acl.filter.anyLocation') }, ...locations.map((l) => ({ value: String(l.id), label: l.name }))]}
        onValueChange={(value) => set('location', value)}
      />
      <SelectField
        label={t('acl.filter.member')}
        className="toolbar__filter"
        value={filters.member}
        options={[
          { value: '', label: t('acl.filter.anyMember') },
          ...members.groups.map((name) => ({ value: `group:${name}`, label: t('acl.filter.group', { name }) })),
          ...members.users.map((name) => ({ value: `user:${name}`, label: t('acl.filter.user', { name }) })),
        ]}
        onValueChange={(value) => set('member', value)}
      />
    </div>
  );
}
