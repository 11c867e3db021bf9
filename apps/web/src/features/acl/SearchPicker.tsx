import { useId, useState } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { PickerItem } from './rule-form';

/** The matches of a search (a small server page), for one picker. */
export interface PickerSource {
  items: readonly PickerItem[];
  isPending: boolean;
  isError: boolean;
}

interface SearchPickerProps {
  label: string;
  value: readonly PickerItem[];
  onChange: (value: PickerItem[]) => void;
  /** A hook: the matches of the (debounced) search text; called only while the picker is in use. */
  useSource: (search: string, isActive: boolean) => PickerSource;
  isDisabled?: boolean;
  hint?: string;
  /** Marks the picker invalid (its side's message shows under the side). */
  isInvalid?: boolean;
}

/**
 * Several users or network devices out of thousands: the chosen ones as tags (each with a remove
 * button), a search box, and its first matches as "add" buttons. Only a small page is ever loaded.
 */
export function SearchPicker({ label, value, onChange, useSource, isDisabled, hint, isInvalid }: SearchPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 250);
  const source = useSource(search, search !== '' && !isDisabled);
  const chosen = new Set(value.map((item) => item.id));
  const matches = source.items.filter((item) => !chosen.has(item.id));
  const add = (item: PickerItem) => {
    onChange([...value, item]);
    setText('');
  };

  let status: string | undefined;
  if (search === '' || text.trim() === '') status = undefined;
  else if (source.isError) status = t('acl.picker.failed');
  else if (source.isPending || search !== text.trim()) status = t('common.loading');
  else if (matches.length === 0) status = t('acl.picker.noMatch');

  return (
    <fieldset className="field acl-picker" disabled={isDisabled}>
      <legend className="field__label">{label}</legend>
      {value.length > 0 ? (
        <ul className="acl-picker__chosen" aria-label={t('acl.picker.chosen', { label })}>
          {value.map((item) => (
            <li key={item.id} className="tag">
              {item.label}
              <button
                type="button"
                className="tag__remove"
                aria-label={t('common.removeValue', { value: item.label })}
                onClick={() => onChange(value.filter((v) => v.id !== item.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor={`${id}-search`} className="visually-hidden">
        {t('acl.picker.search', { label })}
      </label>
      <input
        id={`${id}-search`}
        type="search"
        className="input"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('acl.picker.placeholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={isInvalid || undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {search !== '' && text.trim() !== '' && matches.length > 0 ? (
        <ul className="acl-picker__matches">
          {matches.map((item) => (
            <li key={item.id}>
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => add(item)}>
                {t('acl.picker.add', { name: item.label })}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {status ? (
        <p className="field__hint" role="status">
          {status}
        </p>
      ) : null}
    </fieldset>
  );
}
