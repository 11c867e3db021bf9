import type { User } from '@palisade/contracts';
import { Link, useNavigate } from '@tanstack/react-router';
import { Badge } from '@/components/Badge';
import { Menu } from '@/components/Menu';
import { useEnrollmentActions } from '@/features/enrollment/use-enrollment-actions';
import { pushToast } from '@/components/toast-store';
import { formatDate } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { toUpdateBody, useUpdateUser } from './users.mutations';

interface UserRowProps {
  user: User;
  isSelected: boolean;
  onToggle: () => void;
  onSetPassword: () => void;
  onDelete: () => void;
}

export function UserRow({ user, isSelected, onToggle, onSetPassword, onDelete }: UserRowProps) {
  const { t, language } = useTranslation();
  const navigate = useNavigate();
  const update = useUpdateUser();
  const enrollment = useEnrollmentActions(user);
  const fullName = `${user.first_name} ${user.last_name}`.trim();

  const toggleActive = () =>
    update.mutate(
      { username: user.username, body: toUpdateBody(user, { is_active: !user.is_active }) },
      {
        onSuccess: () =>
          pushToast({
            id: `user-active-${user.username}`,
            kind: 'success',
            message: t(user.is_active ? 'users.toast.disabled' : 'users.toast.enabled', { username: user.username }),
          }),
        onError: (error) => pushToast({ id: `user-active-${user.username}`, kind: 'error', message: problemMessage(t, error) }),
      },
    );

  return (
    <tr className={isSelected ? 'is-selected' : undefined}>
      <td className="col-check">
        <input
          type="checkbox"
          className="checkbox"
          checked={isSelected}
          onChange={onToggle}
          aria-label={t('users.select', { username: user.username })}
        />
      </td>
      <td>
        <div className="user-cell">
          <span className="avatar" aria-hidden="true">
            {(user.first_name[0] ?? user.username[0] ?? '?').toUpperCase()}
          </span>
          <div className="user-cell__text">
            <Link to="/users/$username" params={{ username: user.username }} className="user-cell__name">
              {fullName || user.username}
            </Link>
            <span className="user-cell__login">
              {user.username}
              {user.is_admin ? <Badge tone="primary">{t('users.badge.admin')}</Badge> : null}
            </span>
          </div>
        </div>
      </td>
      <td className="col-md">{user.email}</td>
      <td className="col-lg">
        <span className="groups-cell">{user.groups.join(', ') || '—'}</span>
      </td>
      <td>
        <Badge tone={user.is_active ? 'success' : 'neutral'}>
          {user.is_active ? t('users.status.active') : t('users.status.disabled')}
        </Badge>
      </td>
      <td className="col-lg col-date">{formatDate(language, user.created_at)}</td>
      <td className="col-actions">
        <Menu
          label={t('users.actionsFor', { username: user.username })}
          items={[
            {
              label: t('users.action.edit'),
              onSelect: () => void navigate({ to: '/users/$username', params: { username: user.username }, search: { edit: true } }),
            },
            { label: user.is_active ? t('users.action.disable') : t('users.action.enable'), onSelect: toggleActive },
            { label: t('users.action.setPassword'), onSelect: onSetPassword },
            ...enrollment.items,
            { label: t('users.action.delete'), onSelect: onDelete, isDanger: true },
          ]}
        />
        {enrollment.dialog}
      </td>
    </tr>
  );
}
