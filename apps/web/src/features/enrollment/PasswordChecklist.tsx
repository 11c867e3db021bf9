import { LIMITS } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';

/** Spec §5 password rules, the same checks as the contracts' `passwordSchema`. */
export const PASSWORD_RULES: readonly { key: MessageKey; test: (password: string) => boolean }[] = [
  { key: 'password.rule.length', test: (p) => p.length >= LIMITS.passwordMin && p.length <= LIMITS.passwordMax },
  { key: 'password.rule.digit', test: (p) => /[0-9]/.test(p) },
  { key: 'password.rule.special', test: (p) => /[^A-Za-z0-9]/.test(p) },
  { key: 'password.rule.uppercase', test: (p) => /[A-Z]/.test(p) },
  { key: 'password.rule.lowercase', test: (p) => /[a-z]/.test(p) },
];

/** The live checklist under a new password: each rule ticks as soon as the password meets it. */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation();
  return (
    <ul className="password-checklist" id={id} aria-label={t('password.rules')}>
      {PASSWORD_RULES.map((rule) => {
        const isMet = rule.test(password);
        return (
          <li key={rule.key} className={isMet ? 'is-met' : undefined} data-met={isMet}>
            <span aria-hidden="true">{isMet ? '✓' : '○'}</span> {t(rule.key, { min: LIMITS.passwordMin })}
            <span className="visually-hidden"> — {isMet ? t('password.rule.met') : t('password.rule.unmet')}</span>
          </li>
        );
      })}
    </ul>
  );
}
