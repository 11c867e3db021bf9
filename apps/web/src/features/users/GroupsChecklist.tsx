import { useQuery } from '@tanstack/react-query';
import { CheckboxField } from '@/components/CheckboxField';
import { Loader } from '@/components/Loader';
import { groupsQueryOptions } from '@/features/groups/groups.queries';
import { useTranslation } from '@/i18n/use-translation';

/** Admin-only: group membership of one user as checkboxes. */
export function GroupsChecklist({
  value,
  onChange,
  className,
}: {
  value: readonly string[];
  onChange: (groups: string[]) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const groups = useQuery(groupsQueryOptions);
  const toggle = (name: string, isOn: boolean) => onChange(isOn ? [...value, name] : value.filter((g) => g !== name));
  return (
    <fieldset className={['check-list', className ?? ''].join(' ')}>
      <legend className="field__label">{t('profile.groups')}</legend>
      {groups.isPending ? <Loader /> : null}
      {groups.data?.length === 0 ? <p className="field__hint">{t('assign.noGroups')}</p> : null}
      {groups.data?.map((group) => (
        <CheckboxField
          key={group.id}
          label={group.name}
          checked={value.includes(group.name)}
          onCheckedChange={(on) => toggle(group.name, on)}
        />
      ))}
    </fieldset>
  );
}
