import type { MfaRequired } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';

const METHOD_LABELS: Record<MfaRequired['mfa']['methods'][number], MessageKey> = {
  totp: 'mfa.method.totp',
  email: 'mfa.method.email',
  webauthn: 'mfa.method.webauthn',
};

/** The second login step: lists the accepted methods; verifying them arrives in a later release. */
export function MfaStep({ mfa, onBack }: { mfa: MfaRequired['mfa']; onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="auth-form" aria-labelledby="mfa-title">
      <h1 id="mfa-title" className="auth-form__title">
        {t('mfa.title')}
      </h1>
      <p className="auth-form__subtitle">{t('mfa.intro')}</p>
      <ul className="mfa-methods">
        {mfa.methods.map((method) => (
          <li key={method} className="mfa-methods__item">
            <span>{t(METHOD_LABELS[method])}</span>
            {method === mfa.default_method ? <span className="badge badge--primary">{t('mfa.default')}</span> : null}
          </li>
        ))}
        <li className="mfa-methods__item">
          <span>{t('mfa.method.recovery')}</span>
        </li>
      </ul>
      <p className="banner banner--info">{t('mfa.later')}</p>
      <button type="button" className="btn btn--link" onClick={onBack}>
        ← {t('mfa.back')}
      </button>
    </section>
  );
}
