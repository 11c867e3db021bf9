import { type ReactNode, useId } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';

interface CheckListProps<V extends string | number> {
  legend: string;
  options: readonly { value: V; label: ReactNode; hint?: ReactNode }[];
  value: readonly V[];
  onChange: (value: V[]) => void;
  /** Shown when there is nothing to choose from. */
  emptyText: string;
  isPending?: boolean;
  isDisabled?: boolean;
  error?: FieldIssue | undefined;
}

/** A few things out of a short list (locations, groups, aliases, protocols): one checkbox each. */
export function CheckList<V extends string | number>({
  legend,
  options,
  value,
  onChange,
  emptyText,
  isPending,
  isDisabled,
  error,
}: CheckListProps<V>) {
  const { t } = useTranslation();
  const errorId = useId();
  const toggle = (v: V, on: boolean) => onChange(on ? [...value, v] : value.filter((x) => x !== v));
  return (
    <fieldset
      className={['field', 'check-list', 'acl-check-list', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}
      disabled={isDisabled}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="field__label">{legend}</legend>
      {isPending ? <p className="muted">{t('common.loading')}</p> : null}
      {!isPending && options.length === 0 ? <p className="muted">{emptyText}</p> : null}
      <div className="acl-check-list__grid">
        {options.map((o) => (
          <CheckboxField
            key={o.value}
            label={o.label}
            hint={o.hint}
            checked={value.includes(o.value)}
            onCheckedChange={(on) => toggle(o.value, on)}
          />
        ))}
      </div>
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {fieldMessage(t, error)}
        </p>
      ) : null}
    </fieldset>
  );
}
