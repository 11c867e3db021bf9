import { useTranslation } from '@/i18n/use-translation';
import type { NetworkKeyMode } from './network-device-form';

const MODES = ['generate', 'own', 'cli'] as const satisfies readonly NetworkKeyMode[];

export function KeyModeChoice({ value, onChange }: { value: NetworkKeyMode; onChange: (mode: NetworkKeyMode) => void }) {
  const { t } = useTranslation();
  const labels = {
    generate: [t('addDevice.generate'), t('networkDevices.generateHint')],
    own: [t('addDevice.own'), t('networkDevices.ownHint')],
    cli: [t('networkDevices.cli'), t('networkDevices.cliHint')],
  } as const;
  return (
    <fieldset className="choice-list form-grid__wide">
      <legend className="field__label">{t('addDevice.keys')}</legend>
      {MODES.map((mode) => (
        <label key={mode} className="choice">
          <input type="radio" name="network-key-mode" value={mode} checked={value === mode} onChange={() => onChange(mode)} />
          <span>
            <span className="choice__title">{labels[mode][0]}</span>
            <span className="choice__hint">{labels[mode][1]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
