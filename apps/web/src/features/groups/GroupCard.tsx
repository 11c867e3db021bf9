import type { GroupInfo } from '@palisade/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Badge } from '@/components/Badge';
import { Menu } from '@/components/Menu';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { AddMemberForm } from './AddMemberForm';
import { AdminChangeConfirm } from './AdminChangeConfirm';
import { type AdminImpact, withoutMember } from './admin-change';
import { useRemoveGroupMember } from './groups.mutations';
import { useAdminChange } from './use-admin-change';

const VISIBLE_MEMBERS = 24;

export function GroupCard({ group, onEdit, onDelete }: { group: GroupInfo; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const remove = useRemoveGroupMember();
  const [isExpanded, setIsExpanded] = useState(false);
  const shown = isExpanded ? group.members : group.members.slice(0, VISIBLE_MEMBERS);
  const hidden = group.members.length - shown.length;

  const { assess, leaveAdmin } = useAdminChange();
  const [asking, setAsking] = useState<{ username: string; impact: AdminImpact } | undefined>(undefined);

  const askRemove = (username: string) => {
    const impact = assess((all) => withoutMember(all, group.name, username));
    if (impact) setAsking({ username, impact });
    else removeMember(username, false);
  };

  const removeMember = (username: string, isSelfDemotion: boolean) =>
    remove.mutate(
      { group: group.name, username, ...(isSelfDemotion ? { after: leaveAdmin } : {}) },
      {
        onSuccess: () =>
          pushToast({
            id: `member-removed-${group.name}-${username}`,
            kind: 'success',
            message: t('groups.toast.memberRemoved', { username, group: group.name }),
          }),
        onError: (error) => pushToast({ id: `member-remove-error-${group.name}`, kind: 'error', message: problemMessage(t, error) }),
        onSettled: () => setAsking(undefined),
      },
    );

  return (
    <article className="card group-card" aria-labelledby={`group-${group.id}`}>
      <div className="card__header">
        <div className="group-card__title">
          <h2 id={`group-${group.id}`} className="card__title">
            {group.name}
          </h2>
          {group.is_admin ? <Badge tone="primary">{t('groups.badge.admin')}</Badge> : null}
        </div>
        <Menu
          label={t('users.actionsFor', { username: group.name })}
          items={[
            { label: t('groups.edit'), onSelect: onEdit },
            { label: t('groups.delete'), onSelect: onDelete, isDanger: true },
          ]}
        />
      </div>
      <div className="card__body group-card__body">
        <p className="group-card__count">{t('groups.members', { count: group.members.length })}</p>
        {group.members.length === 0 ? <p className="muted">{t('groups.noMembers')}</p> : null}
        <ul className="chip-list">
          {shown.map((username) => (
            <li key={username} className="chip">
              <Link to="/users/$username" params={{ username }} className="chip__label">
                {username}
              </Link>
              <button
                type="button"
                className="chip__remove"
                onClick={() => askRemove(username)}
                aria-label={t('groups.removeMember', { username, group: group.name })}
              >
                ×
              </button>
            </li>
          ))}
          {hidden > 0 ? (
            <li>
              <button type="button" className="btn btn--link chip-more" onClick={() => setIsExpanded(true)}>
                {t('groups.moreMembers', { count: hidden })}
              </button>
            </li>
          ) : null}
        </ul>
        <AddMemberForm group={group.name} />
      </div>
      <AdminChangeConfirm
        impact={asking?.impact}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => asking && removeMember(asking.username, asking.impact?.kind === 'self')}
        isPending={remove.isPending}
      />
    </article>
  );
}
