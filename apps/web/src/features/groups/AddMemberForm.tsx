import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/Button';
import { pushToast } from '@/components/toast-store';
import { userSuggestionsQueryOptions } from '@/features/users/users.queries';
import { useTranslation } from '@/i18n/use-translation';
import { fieldMessage, issuesFromProblem } from '@/lib/field-errors';
import { problemMessage } from '@/lib/problem-message';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { AdminChangeConfirm } from './AdminChangeConfirm';
import { type AdminImpact, withMember } from './admin-change';
import { useAddGroupMember } from './groups.mutations';
import { useAdminChange } from './use-admin-change';

/** POST /group/{group} {username}; suggestions come from a server search, never the full user list. */
export function AddMemberForm({ group }: { group: string }) {
  const { t } = useTranslation();
  const id = useId();
  const add = useAddGroupMember();
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const term = useDebouncedValue(username.trim(), 250);
  const suggestions = useQuery(userSuggestionsQueryOptions(term));

  const { assess } = useAdminChange();
  const [asking, setAsking] = useState<AdminImpact>(undefined);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const name = username.trim();
    if (!name) {
      setError(t('field.required'));
      return;
    }
    // Joining an admin group gives full administrator rights: ask first.
    const impact = assess((all) => withMember(all, group, name));
    if (impact) setAsking(impact);
    else addMember(name);
  };

  const addMember = (name: string) =>
    add.mutate(
      { group, username: name },
      {
        onSuccess: () => {
          setUsername('');
          setError(undefined);
          pushToast({
            id: `member-added-${group}-${name}`,
            kind: 'success',
            message: t('groups.toast.memberAdded', { username: name, group }),
          });
        },
        onError: (err) => {
          const issue = issuesFromProblem(err)?.username;
          setError(issue ? fieldMessage(t, issue) : problemMessage(t, err));
        },
        onSettled: () => setAsking(undefined),
      },
    );

  return (
    <form className="add-member" onSubmit={onSubmit} noValidate aria-label={t('groups.addMemberTo', { group })}>
      <label htmlFor={`${id}-input`} className="visually-hidden">
        {t('groups.addMemberTo', { group })}
      </label>
      <div className="add-member__row">
        <input
          id={`${id}-input`}
          className="input"
          list={`${id}-list`}
          placeholder={t('groups.memberUsername')}
          value={username}
          onChange={(e) => {
            setUsername(e.target.value);
            setError(undefined);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoComplete="off"
        />
        <Button type="submit" size="sm" isLoading={add.isPending}>
          {t('groups.addMember')}
        </Button>
      </div>
      <datalist id={`${id}-list`}>
        {suggestions.data?.items.map((u) => (
          <option key={u.id} value={u.username}>{`${u.first_name} ${u.last_name}`}</option>
        ))}
      </datalist>
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <AdminChangeConfirm
        impact={asking}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => addMember(username.trim())}
        isPending={add.isPending}
      />
    </form>
  );
}
