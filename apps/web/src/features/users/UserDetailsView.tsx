import type { User } from '@palisade/contracts';
import { Button } from '@/components/Button';
import { formatDate } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';

export function UserDetailsView({ user, onEdit }: { user: User; onEdit: () => void }) {
  const { t, language } = useTranslation();
  const rows: [string, string][] = [
    [t('user.username'), user.username],
    [t('user.firstName'), user.first_name],
    [t('user.lastName'), user.last_name],
    [t('user.email'), user.email],
    [t('user.phone'), user.phone ?? '—'],
    [t('profile.groups'), user.groups.join(', ') || t('profile.noGroups')],
    [t('profile.mfa'), user.mfa_enabled ? t('profile.mfaOn') : t('profile.mfaOff')],
    [t('profile.created'), formatDate(language, user.created_at)],
  ];
  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('profile.details')}</h2>
        <Button size="sm" onClick={onEdit}>
          {t('common.edit')}
        </Button>
      </div>
      <dl className="details card__body">
        {rows.map(([label, value]) => (
          <div key={label} className="details__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
