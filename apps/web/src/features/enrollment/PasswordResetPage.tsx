import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { finishPasswordReset, startPasswordReset } from './password-reset.api';
import { InvalidLink } from './InvalidLink';
import { NewPasswordForm } from './NewPasswordForm';
import { PasswordResetRequest } from './PasswordResetRequest';
import { PublicCard } from './PublicCard';

const route = getRouteApi('/password-reset');

/** "Forgot password?": ask for a link by email, or (opened from that link) choose a new password. */
export function PasswordResetPage() {
  const { token } = route.useSearch();
  return <PublicCard>{token ? <ResetWithToken token={token} /> : <PasswordResetRequest />}</PublicCard>;
}

function ResetWithToken({ token }: { token: string }) {
  const { t } = useTranslation();
  // Checks the link without spending it, so the page says at once whether it can still be used.
  const info = useQuery({
    queryKey: ['password-reset', token],
    queryFn: () => startPasswordReset(token),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const finish = useMutation({ mutationFn: (password: string) => finishPasswordReset(token, password) });
  if (info.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (info.isError)
    return (
      <InvalidLink error={info.error}>
        <Link to="/password-reset" search={{}} className="btn btn--secondary">
          {t('reset.requestAgain')}
        </Link>
      </InvalidLink>
    );
  if (finish.isSuccess)
    return (
      <div className="form-grid">
        <h1 className="auth-form__title">{t('reset.doneTitle')}</h1>
        <p>{t('reset.doneText', { username: info.data.username })}</p>
        <div className="enrollment-actions">
          <Link to="/login" className="btn btn--primary">
            {t('enrollment.flow.signIn')}
          </Link>
        </div>
      </div>
    );
  return (
    <NewPasswordForm
      title={t('reset.chooseTitle')}
      intro={t('reset.chooseIntro', { username: info.data.username })}
      submitLabel={t('reset.chooseSubmit')}
      isPending={finish.isPending}
      onSubmit={(password, showError) => finish.mutate(password, { onError: (error) => void showError(error) })}
    />
  );
}
