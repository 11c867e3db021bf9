import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { Badge } from '@/components/Badge';
import { StateMessage } from '@/components/StateMessage';
import { useModuleEnabled } from '@/features/app/modules';
import { useAuthStore } from '@/features/auth/auth-store';
import { ApiTokensCard } from '@/features/api-tokens/ApiTokensCard';
import { AuthKeysCard } from '@/features/auth-keys/AuthKeysCard';
import { AuthorizedAppsCard } from '@/features/authorized-apps/AuthorizedAppsCard';
import { DevicesCard } from '@/features/devices/DevicesCard';
import { MfaCard } from '@/features/mfa/MfaCard';
import { ResetMfaCard } from '@/features/mfa/ResetMfaCard';
import { YubikeysCard } from '@/features/yubikeys/YubikeysCard';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { PasswordCard } from './PasswordCard';
import { UserDetailsForm } from './UserDetailsForm';
import { UserDetailsView } from './UserDetailsView';
import { userQueryOptions } from './users.queries';
import './users.css';

export function UserProfilePage() {
  const { t } = useTranslation();
  const { username } = useParams({ from: '/_authed/users/$username' });
  const me = useAuthStore((s) => s.user);
  const user = useQuery(userQueryOptions(username));
  // Edit mode lives in the URL (`?edit=true`), so "Edit profile" in the user list can open it.
  const isEditing = useSearch({ from: '/_authed/users/$username' }).edit === true;
  const navigate = useNavigate({ from: '/users/$username' });
  const setIsEditing = (edit: boolean) => void navigate({ search: edit ? { edit: true } : {}, replace: true, ignoreBlocker: !edit });
  const isWireguardEnabled = useModuleEnabled('wireguard');
  const isOpenidEnabled = useModuleEnabled('openid');

  if (user.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (user.isError)
    return (
      <StateMessage kind="error" title={t('profile.loadError')} hint={problemMessage(t, user.error)} onRetry={() => void user.refetch()} />
    );

  const profile = user.data;
  const isSelf = me?.username === profile.username;
  const isAdmin = me?.is_admin === true;
  const fullName = `${profile.first_name} ${profile.last_name}`.trim() || profile.username;
  return (
    <section aria-labelledby="profile-title" className="profile">
      <header className="page-header">
        <div className="profile__heading">
          <span className="avatar avatar--lg" aria-hidden="true">
            {(profile.first_name[0] ?? profile.username[0] ?? '?').toUpperCase()}
          </span>
          <div>
            <h1 id="profile-title" className="page-header__title">
              {fullName}
            </h1>
            <p className="profile__subtitle">
              {profile.username}
              {isSelf ? <span className="muted"> ({t('profile.you')})</span> : null}
              {profile.is_admin ? <Badge tone="primary">{t('profile.admin')}</Badge> : null}
              <Badge tone={profile.is_active ? 'success' : 'neutral'}>
                {profile.is_active ? t('users.status.active') : t('users.status.disabled')}
              </Badge>
            </p>
          </div>
        </div>
      </header>
      <div className="profile__grid">
        {isEditing ? (
          <UserDetailsForm user={profile} isAdmin={isAdmin} isSelf={isSelf} onDone={() => setIsEditing(false)} />
        ) : (
          <UserDetailsView user={profile} onEdit={() => setIsEditing(true)} />
        )}
        <PasswordCard username={profile.username} isSelf={isSelf} isAdmin={isAdmin} />
        {isSelf ? <MfaCard username={profile.username} /> : isAdmin ? <ResetMfaCard user={profile} /> : null}
        {isOpenidEnabled ? <AuthorizedAppsCard username={profile.username} /> : null}
        <YubikeysCard username={profile.username} />
        <AuthKeysCard username={profile.username} />
        <ApiTokensCard username={profile.username} />
      </div>
      {isWireguardEnabled ? <DevicesCard username={profile.username} /> : null}
    </section>
  );
}
