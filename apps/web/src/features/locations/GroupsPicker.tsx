import { useQuery } from '@tanstack/react-query';
import { CheckboxField } from '@/components/CheckboxField';
import { useTranslation } from '@/i18n/use-translation';
import { groupNamesQueryOptions } from './locations.queries';

interface GroupsPickerProps {
  value: readonly string[];
  onChange: (groups: string[]) => void;
  className?: string;
}

/** Allowed groups: none selected means every user may connect (spec §6). */
export function GroupsPicker({ value, onChange, className }: GroupsPickerProps) {
  const { t } = useTranslation();
  const groups = useQuery(groupNamesQueryOptions);
  const toggle = (name: string, isOn: boolean) => onChange(isOn ? [...value, name] : value.filter((g) => g !== name));
  return (
    <fieldset className={['check-list groups-picker', className ?? ''].filter(Boolean).join(' ')}>
      <legend className="field__label">{t('locations.allowedGroups')}</legend>
      <p className="field__hint">{t('locations.allowedGroupsHint')}</p>
      {groups.isPending ? <p className="muted">{t('common.loading')}</p> : null}
      {groups.isError ? <p className="field__error">{t('groups.loadError')}</p> : null}
      {groups.data?.length === 0 ? <p className="muted">{t('locations.noGroups')}</p> : null}
      <div className="groups-picker__grid">
        {groups.data?.map((name) => (
          <CheckboxField key={name} label={name} checked={value.includes(name)} onCheckedChange={(on) => toggle(name, on)} />
        ))}
      </div>
    </fieldset>
  );
}
