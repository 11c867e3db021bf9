import { ConfirmDialog } from '@/components/ConfirmDialog';
import { useTranslation } from '@/i18n/use-translation';
import type { AdminImpact } from './admin-change';

interface AdminChangeConfirmProps {
  impact: AdminImpact;
  onCancel: () => void;
  onConfirm: () => void;
  isPending?: boolean;
}

const SHOWN_NAMES = 10;

/** Asks before a change takes the own administrator rights or gives them to others. */
export function AdminChangeConfirm({ impact, onCancel, onConfirm, isPending }: AdminChangeConfirmProps) {
  const { t } = useTranslation();
  if (!impact) return null;
  if (impact.kind === 'self') {
    return (
      <ConfirmDialog
        title={t('groups.confirm.selfTitle')}
        isOpen
        onCancel={onCancel}
        onConfirm={onConfirm}
        confirmLabel={t('groups.confirm.selfConfirm')}
        isDanger
        isPending={isPending}
      >
        <p>{t('groups.confirm.selfMessage')}</p>
      </ConfirmDialog>
    );
  }
  const count = impact.users.length;
  const users =
    count > SHOWN_NAMES
      ? t('groups.confirm.andMore', { users: impact.users.slice(0, SHOWN_NAMES).join(', '), count: count - SHOWN_NAMES })
      : impact.users.join(', ');
  return (
    <ConfirmDialog
      title={t('groups.confirm.grantTitle')}
      isOpen
      onCancel={onCancel}
      onConfirm={onConfirm}
      confirmLabel={t('groups.confirm.grantConfirm')}
      isPending={isPending}
    >
      <p>{t('groups.confirm.grantMessage', { count, users })}</p>
    </ConfirmDialog>
  );
}
