import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { groupNamesQueryOptions } from '@/features/locations/locations.queries';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssues, fieldMessage } from '@/lib/field-errors';
import { CheckList } from './CheckList';
import { useNetworkDeviceMatches, useUserMatches } from './picker-sources';
import { SearchPicker } from './SearchPicker';
import { ALLOWED_FIELDS, DENIED_FIELDS, firstIssue, type PickerItem, type RuleFormValues } from './rule-form';

type SetValue = <K extends keyof RuleFormValues>(name: K, value: RuleFormValues[K]) => void;

interface RuleMembersFieldsProps {
  side: 'allow' | 'deny';
  values: RuleFormValues;
  setValue: SetValue;
  errors: FieldIssues;
}

const FIELDS = {
  allow: {
    allUsers: 'allow_all_users',
    users: 'allowed_users',
    groups: 'allowed_groups',
    allDevices: 'allow_all_network_devices',
    devices: 'allowed_network_devices',
  },
  deny: {
    allUsers: 'deny_all_users',
    users: 'denied_users',
    groups: 'denied_groups',
    allDevices: 'deny_all_network_devices',
    devices: 'denied_network_devices',
  },
} as const;

/** One side of a rule's members (spec §3): users, groups, network devices, or all of them. */
export function RuleMembersFields({ side, values, setValue, errors }: RuleMembersFieldsProps) {
  const { t } = useTranslation();
  const id = useId();
  const groups = useQuery(groupNamesQueryOptions);
  const f = FIELDS[side];
  const issue = firstIssue(errors, side === 'allow' ? ALLOWED_FIELDS : DENIED_FIELDS);
  const allUsers = values[f.allUsers];
  const allDevices = values[f.allDevices];
  const title = t(side === 'allow' ? 'acl.rule.allowed' : 'acl.rule.denied');
  return (
    <fieldset
      className={['card', 'acl-form__section', issue ? 'field--invalid' : ''].filter(Boolean).join(' ')}
      aria-describedby={issue ? `${id}-error` : `${id}-hint`}
    >
      <legend className="acl-form__legend">{title}</legend>
      <p id={`${id}-hint`} className="field__hint">
        {t(side === 'allow' ? 'acl.rule.allowedHint' : 'acl.rule.deniedHint')}
      </p>
      <CheckboxField
        name={f.allUsers}
        label={t(side === 'allow' ? 'acl.rule.allowAllUsers' : 'acl.rule.denyAllUsers')}
        checked={allUsers}
        onCheckedChange={(on) => setValue(f.allUsers, on)}
      />
      <SearchPicker
        label={t('acl.rule.users')}
        value={values[f.users]}
        onChange={(v: PickerItem[]) => setValue(f.users, v)}
        useSource={useUserMatches}
        isDisabled={allUsers}
        isInvalid={Boolean(issue)}
      />
      <CheckList
        legend={t('acl.rule.groups')}
        options={(groups.data ?? []).map((name) => ({ value: name, label: name }))}
        value={values[f.groups]}
        onChange={(v) => setValue(f.groups, v)}
        emptyText={t('locations.noGroups')}
        isPending={groups.isPending}
        isDisabled={allUsers}
      />
      <CheckboxField
        name={f.allDevices}
        label={t(side === 'allow' ? 'acl.rule.allowAllNetworkDevices' : 'acl.rule.denyAllNetworkDevices')}
        checked={allDevices}
        onCheckedChange={(on) => setValue(f.allDevices, on)}
      />
      <SearchPicker
        label={t('acl.rule.networkDevices')}
        value={values[f.devices]}
        onChange={(v: PickerItem[]) => setValue(f.devices, v)}
        useSource={useNetworkDeviceMatches}
        isDisabled={allDevices}
        isInvalid={Boolean(issue)}
      />
      {issue ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {fieldMessage(t, issue)}
        </p>
      ) : null}
    </fieldset>
  );
}
