import type { EnrollmentFinished, EnrollmentSession } from '@palisade/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import { useModuleEnabled } from '@/features/app/modules';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { EnrollmentDeviceStep } from './EnrollmentDeviceStep';
import { enrollmentFlowKeys, finishEnrollment, getEnrollmentSession, setEnrollmentPassword, startEnrollment } from './enrollment-flow.api';
import { InvalidLink } from './InvalidLink';
import { MarkdownView } from './MarkdownView';
import { NewPasswordForm } from './NewPasswordForm';
import { PublicCard } from './PublicCard';

const route = getRouteApi('/enrollment');

type Step = 'welcome' | 'password' | 'device' | 'done';
const STEPS: readonly [Step, MessageKey][] = [
  ['welcome', 'enrollment.flow.step.welcome'],
  ['password', 'enrollment.flow.step.password'],
  ['device', 'enrollment.flow.step.device'],
  ['done', 'enrollment.flow.step.done'],
];

/**
 * The public enrollment page (spec §2, §4): the link's token is redeemed once into the flow's own
 * cookie and then dropped from the address bar; a reload resumes the flow from that cookie.
 */
export function EnrollmentPage() {
  const { t } = useTranslation();
  const { token } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useQuery({
    queryKey: token ? [...enrollmentFlowKeys.session, 'start', token] : enrollmentFlowKeys.session,
    queryFn: () => (token ? startEnrollment(token) : getEnrollmentSession()),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  useEffect(() => {
    if (!token || !session.data) return;
    queryClient.setQueryData(enrollmentFlowKeys.session, session.data);
    void navigate({ to: '/enrollment', search: {}, replace: true });
  }, [token, session.data, queryClient, navigate]);

  if (session.isPending)
    return (
      <PublicCard>
        <StateMessage kind="loading" title={t('common.loading')} />
      </PublicCard>
    );
  if (session.isError)
    return (
      <PublicCard>
        <InvalidLink error={session.error} />
      </PublicCard>
    );
  return <EnrollmentFlow session={session.data} />;
}

function EnrollmentFlow({ session }: { session: EnrollmentSession }) {
  const { t, language } = useTranslation();
  const [step, setStep] = useState<Step>('welcome');
  const [finished, setFinished] = useState<EnrollmentFinished | undefined>(undefined);
  // Without the WireGuard module there are no VPN devices: the flow goes from the password to the end.
  const hasVpnStep = useModuleEnabled('wireguard');
  const steps = hasVpnStep ? STEPS : STEPS.filter(([id]) => id !== 'device');
  const password = useMutation({ mutationFn: setEnrollmentPassword });
  const finish = useMutation({ mutationFn: () => finishEnrollment(language), onSuccess: (done) => setFinished(done) });
  const complete = () => {
    setStep('done');
    finish.mutate();
  };
  const goToDevice = () => (hasVpnStep ? setStep('device') : complete());

  return (
    <PublicCard isWide>
      <ol className="enrollment-steps" aria-label={t('enrollment.flow.steps')}>
        {steps.map(([id, label]) => (
          <li key={id} aria-current={id === step ? 'step' : undefined}>
            {t(label)}
          </li>
        ))}
      </ol>
      {step === 'welcome' ? (
        <div>
          <h1 className="auth-form__title">
            {t('enrollment.flow.welcomeTitle', { name: session.user.first_name || session.user.username })}
          </h1>
          {session.welcome_message.trim() ? <MarkdownView markdown={session.welcome_message} className="enrollment-welcome" /> : null}
          <div className="enrollment-actions">
            <Button variant="primary" onClick={() => (session.password_set ? goToDevice() : setStep('password'))}>
              {t('enrollment.flow.next')}
            </Button>
          </div>
        </div>
      ) : step === 'password' ? (
        <NewPasswordForm
          title={t('enrollment.flow.passwordTitle')}
          intro={t('enrollment.flow.passwordIntro', { username: session.user.username })}
          submitLabel={t('enrollment.flow.passwordSubmit')}
          isPending={password.isPending}
          onSubmit={(value, showError) => password.mutate(value, { onSuccess: goToDevice, onError: (error) => void showError(error) })}
        />
      ) : step === 'device' ? (
        <EnrollmentDeviceStep isOptional={session.vpn_step_optional} onDone={complete} />
      ) : (
        <EnrollmentDone username={session.user.username} finish={finish} finished={finished} onRetry={() => finish.mutate()} />
      )}
    </PublicCard>
  );
}

interface EnrollmentDoneProps {
  username: string;
  finish: { isPending: boolean; isError: boolean; error: unknown };
  finished: EnrollmentFinished | undefined;
  onRetry: () => void;
}

function EnrollmentDone({ username, finish, finished, onRetry }: EnrollmentDoneProps) {
  const { t } = useTranslation();
  if (finish.isError) return <InvalidLink error={finish.error} onRetry={onRetry} />;
  if (!finished) return <StateMessage kind="loading" title={t('enrollment.flow.finishing')} />;
  return (
    <div className="form-grid">
      <h1 className="auth-form__title">{t('enrollment.flow.doneTitle')}</h1>
      <p>{t('enrollment.flow.doneText', { username })}</p>
      {finished.welcome_email_sent ? <p className="muted">{t('enrollment.flow.welcomeEmailSent')}</p> : null}
      <div className="enrollment-actions">
        <Link to="/login" className="btn btn--primary">
          {t('enrollment.flow.signIn')}
        </Link>
      </div>
    </div>
  );
}
