import { OAUTH_SCOPES, type OAuthScope } from '@palisade/contracts';
import { useId } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';
import { scopeLabelKey } from './openid-app-form';

interface ScopesFieldProps {
  value: readonly OAuthScope[];
  onValueChange: (value: OAuthScope[]) => void;
  error: FieldIssue | undefined;
}

/** One checkbox per scope of spec §9, each with what it gives the app; at least one (spec §5). */
export function ScopesField({ value, onValueChange, error }: ScopesFieldProps) {
  const { t } = useTranslation();
  const errorId = useId();
  const toggle = (scope: OAuthScope, checked: boolean) => onValueChange(checked ? [...value, scope] : value.filter((s) => s !== scope));
  return (
    <fieldset
      className={['field', 'form-grid__wide', 'check-list', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="field__label">{t('openidApps.scopes')}</legend>
      {OAUTH_SCOPES.map((scope) => (
        <CheckboxField
          key={scope}
          name="scopes"
          label={<span className="mono">{scope}</span>}
          hint={t(scopeLabelKey(scope))}
          checked={value.includes(scope)}
          onCheckedChange={(checked) => toggle(scope, checked)}
        />
      ))}
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {fieldMessage(t, error)}
        </p>
      ) : null}
    </fieldset>
  );
}
