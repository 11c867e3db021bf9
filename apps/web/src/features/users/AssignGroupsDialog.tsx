import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { Dialog } from '@/components/Dialog';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { AdminChangeConfirm } from '@/features/groups/AdminChangeConfirm';
import { type AdminImpact, withMember } from '@/features/groups/admin-change';
import { groupsQueryOptions } from '@/features/groups/groups.queries';
import { useAdminChange } from '@/features/groups/use-admin-change';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useAssignGroups } from './users.mutations';

interface AssignGroupsDialogProps {
  isOpen: boolean;
  usernames: readonly string[];
  onClose: () => void;
  onDone: () => void;
}

/** Bulk: POST /groups-assign {groups, users} for the users selected in the list. */
export function AssignGroupsDialog({ isOpen, usernames, onClose, onDone }: AssignGroupsDialogProps) {
  const { t } = useTranslation();
  const groups = useQuery({ ...groupsQueryOptions, enabled: isOpen });
  const assign = useAssignGroups();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());

  const toggle = (name: string, isOn: boolean) => {
    const next = new Set(chosen);
    if (isOn) next.add(name);
    else next.delete(name);
    setChosen(next);
  };
  const { assess } = useAdminChange();
  const [asking, setAsking] = useState<AdminImpact>(undefined);
  // Joining an admin group gives full administrator rights: say who gets them first.
  const submit = () => {
    const impact = assess((all) =>
      [...chosen].reduce((next, group) => usernames.reduce((g, u) => withMember(g, group, u), next), [...all]),
    );
    if (impact) setAsking(impact);
    else save();
  };
  const save = () =>
    assign.mutate(
      { groups: [...chosen], users: [...usernames] },
      {
        onSuccess: () => {
          pushToast({ id: 'groups-assigned', kind: 'success', message: t('users.toast.assigned') });
          setChosen(new Set());
          onDone();
          onClose();
        },
        onError: (error) => pushToast({ id: 'groups-assign-error', kind: 'error', message: problemMessage(t, error) }),
        onSettled: () => setAsking(undefined),
      },
    );

  return (
    <Dialog
      title={t('assign.title')}
      isOpen={isOpen}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" onClick={submit} disabled={chosen.size === 0} isLoading={assign.isPending}>
            {t('assign.submit')}
          </Button>
        </>
      }
    >
      <p>{t('assign.intro', { count: usernames.length })}</p>
      {groups.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : groups.isError ? (
        <StateMessage kind="error" title={t('groups.loadError')} onRetry={() => void groups.refetch()} />
      ) : groups.data.length === 0 ? (
        <StateMessage kind="empty" title={t('assign.noGroups')} />
      ) : (
        <fieldset className="check-list">
          <legend className="field__label">{t('assign.groups')}</legend>
          {groups.data.map((group) => (
            <CheckboxField
              key={group.id}
              label={group.name}
              checked={chosen.has(group.name)}
              onCheckedChange={(on) => toggle(group.name, on)}
            />
          ))}
        </fieldset>
      )}
      <AdminChangeConfirm impact={asking} onCancel={() => setAsking(undefined)} onConfirm={save} isPending={assign.isPending} />
    </Dialog>
  );
}
