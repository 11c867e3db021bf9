import { useId } from 'react';
import type { Translate } from '@/i18n/translate';
import { useTranslation } from '@/i18n/use-translation';
import { fieldMessage } from '@/lib/field-errors';
import { MapUserPicker } from './MapUserPicker';
import type { MapRow, RowErrors, RowIssue } from './map-devices';

/** An address conflict names the address and who has it; other codes use the field messages. */
export function issueMessage(t: Translate, issue: RowIssue): string {
  const { code, params } = issue;
  if (code === 'network.ip_in_use' && params?.device !== undefined) return t('wizard.map.ipUsedBy', params);
  if (code === 'network.ip_in_use' && params?.key !== undefined) return t('wizard.map.ipTwice', params);
  return fieldMessage(t, issue);
}

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
    const issue = errors[field];
    return issue ? (
      <p id={`${id}-${field}`} className="field__error" role="alert">
        {issueMessage(t, issue)}
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
      <td className="mono" title={row.wireguard_pubkey} data-label={t('devices.publicKey')}>
        {label}
        {row.isExisting ? <p className="field__hint">{t('wizard.map.existing')}</p> : null}
      </td>
      <td className={errors.name ? 'field--invalid' : undefined} data-label={t('devices.name')}>
        <input
          className="input"
          value={row.name}
          disabled={row.isExisting}
          onChange={(e) => onChange({ name: e.target.value })}
          {...a11y('name', t('devices.name'))}
        />
        {error('name')}
      </td>
      <td className={errors.ips ? 'field--invalid' : undefined} data-label={t('wizard.map.ips')}>
        <input
          className="input mono"
          value={row.ips}
          disabled={row.isExisting}
          onChange={(e) => onChange({ ips: e.target.value })}
          {...a11y('ips', t('wizard.map.ips'))}
        />
        {error('ips')}
      </td>
      <td className={errors.userId ? 'field--invalid' : undefined} data-label={t('wizard.map.user')}>
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
