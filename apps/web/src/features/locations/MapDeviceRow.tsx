import { useId } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { fieldMessage } from '@/lib/field-errors';
import { MapUserPicker } from './MapUserPicker';
import type { MapRow, RowErrors } from './map-devices';

interface MapDeviceRowProps {
  row: MapRow;
  label: string;
  errors: RowErrors;
  onChange: (change: Partial<MapRow>) => void;
}

export function MapDeviceRow({ row, label, errors, onChange }: MapDeviceRowProps) {
  const { t } = useTranslation();
  const id = useId();
  const error = (field: keyof RowErrors) => {
    const code = errors[field];
    return code ? (
      <p id={`${id}-${field}`} className="field__error" role="alert">
        {fieldMessage(t, { code })}
      </p>
    ) : null;
  };
  const a11y = (field: keyof RowErrors, name: string) => ({
    'aria-label': t('wizard.map.fieldFor', { field: name, key: label }),
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id}-${field}` : undefined,
  });
  return (
    <tr>
      <td className="mono" title={row.wireguard_pubkey}>
        {label}
        {row.isExisting ? <p className="field__hint">{t('wizard.map.existing')}</p> : null}
      </td>
      <td className={errors.name ? 'field--invalid' : undefined}>
        <input
          className="input"
          value={row.name}
          disabled={row.isExisting}
          onChange={(e) => onChange({ name: e.target.value })}
          {...a11y('name', t('devices.name'))}
        />
        {error('name')}
      </td>
      <td className={errors.ips ? 'field--invalid' : undefined}>
        <input
          className="input mono"
          value={row.ips}
          disabled={row.isExisting}
          onChange={(e) => onChange({ ips: e.target.value })}
          {...a11y('ips', t('wizard.map.ips'))}
        />
        {error('ips')}
      </td>
      <td className={errors.userId ? 'field--invalid' : undefined}>
        <MapUserPicker
          value={row.userId ? { id: row.userId, label: row.userLabel ?? '' } : undefined}
          onChange={(user) => onChange({ userId: user?.id ?? '', userLabel: user?.label ?? '' })}
          isDisabled={row.isExisting}
          a11y={a11y('userId', t('wizard.map.user'))}
        />
        {error('userId')}
      </td>
    </tr>
  );
}
