import { useId } from 'react';
import { Button } from '@/components/Button';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssues, fieldMessage } from '@/lib/field-errors';

interface RedirectUrisFieldProps {
  value: readonly string[];
  onValueChange: (value: string[]) => void;
  /** The form's errors: `redirect_uris` (the list) and `redirect_uris.<index>` (one row). */
  errors: FieldIssues;
}

/** Several redirect URIs, one row each, added and removed here; each row shows its own error (spec §5). */
export function RedirectUrisField({ value, onValueChange, errors }: RedirectUrisFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const listError = errors.redirect_uris;
  const set = (index: number, uri: string) => onValueChange(value.map((v, i) => (i === index ? uri : v)));
  const remove = (index: number) => onValueChange(value.filter((_, i) => i !== index));
  return (
    <fieldset className={['field', 'form-grid__wide', listError ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <legend className="field__label">{t('openidApps.redirectUris')}</legend>
      <p id={`${id}-hint`} className="field__hint">
        {t('openidApps.redirectUrisHint')}
      </p>
      {value.map((uri, index) => {
        const error = errors[`redirect_uris.${index}`];
        const inputId = `${id}-${index}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
          <div key={index} className="openid-redirect">
            <div className="openid-redirect__row">
              <label htmlFor={inputId} className="visually-hidden">
                {t('openidApps.redirectUri', { index: index + 1 })}
              </label>
              <input
                id={inputId}
                name={`redirect_uris.${index}`}
                type="url"
                className="input mono"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://app.example.com/callback"
                value={uri}
                onChange={(e) => set(index, e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={[error ? `${inputId}-error` : '', `${id}-hint`].filter(Boolean).join(' ')}
              />
              <Button
                variant="ghost"
                onClick={() => remove(index)}
                disabled={value.length === 1}
                aria-label={t('openidApps.removeRedirectUri', { index: index + 1 })}
              >
                {t('openidApps.remove')}
              </Button>
            </div>
            {error ? (
              <p id={`${inputId}-error`} className="field__error" role="alert">
                {fieldMessage(t, error)}
              </p>
            ) : null}
          </div>
        );
      })}
      {listError ? (
        <p className="field__error" role="alert">
          {fieldMessage(t, listError)}
        </p>
      ) : null}
      <div>
        <Button size="sm" onClick={() => onValueChange([...value, ''])}>
          {t('openidApps.addRedirectUri')}
        </Button>
      </div>
    </fieldset>
  );
}
