import { useState } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { useTranslation } from '@/i18n/use-translation';
import { FilterPopover } from './FilterPopover';

interface OptionsFilterProps<V extends string> {
  label: string;
  options: readonly { value: V; label: string }[];
  values: readonly V[];
  onValuesChange: (values: V[]) => void;
}

/** A multi-select over a fixed list (modules, event types), narrowed by typing. */
export function OptionsFilter<V extends string>({ label, options, values, onValuesChange }: OptionsFilterProps<V>) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const term = text.trim().toLocaleLowerCase();
  const shown = term ? options.filter((o) => o.label.toLocaleLowerCase().includes(term) || o.value.includes(term)) : options;
  const toggle = (value: V, isOn: boolean) => onValuesChange(isOn ? [...values, value] : values.filter((v) => v !== value));
  return (
    <FilterPopover label={label} count={values.length} onClear={() => onValuesChange([])}>
      {options.length > 8 ? (
        <input
          type="search"
          className="input activity-filter__search"
          aria-label={t('activity.filter.narrow', { label })}
          placeholder={t('activity.filter.narrowPlaceholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
        />
      ) : null}
      <div className="check-list activity-filter__list">
        {shown.map((option) => (
          <CheckboxField
            key={option.value}
            label={option.label}
            checked={values.includes(option.value)}
            onCheckedChange={(isOn) => toggle(option.value, isOn)}
          />
        ))}
        {shown.length === 0 ? <p className="muted">{t('activity.filter.noMatches')}</p> : null}
      </div>
    </FilterPopover>
  );
}
