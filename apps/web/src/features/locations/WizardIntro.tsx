import { useState } from 'react';
import { Button } from '@/components/Button';
import { useTranslation } from '@/i18n/use-translation';

export type SetupMode = 'manual' | 'import';

/** Wizard welcome: what a location is and what the next steps ask for. */
export function WizardWelcome({ onStart, onCancel }: { onStart: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('wizard.welcome.title')}</h2>
      </div>
      <div className="card__body">
        <p>{t('wizard.welcome.text')}</p>
        <ul className="welcome-list">
          <li>{t('wizard.welcome.point1')}</li>
          <li>{t('wizard.welcome.point2')}</li>
          <li>{t('wizard.welcome.point3')}</li>
        </ul>
      </div>
      <div className="form-actions card__body">
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button variant="primary" onClick={onStart}>
          {t('wizard.welcome.start')}
        </Button>
      </div>
    </div>
  );
}

/** Wizard step 2: set the location up by hand or import a WireGuard server config. */
export function WizardChoose({ onBack, onChoose }: { onBack: () => void; onChoose: (mode: SetupMode) => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<SetupMode>('manual');
  const option = (value: SetupMode, title: string, hint: string) => (
    <label className="choice">
      <input type="radio" name="setup-mode" value={value} checked={mode === value} onChange={() => setMode(value)} />
      <span>
        <span className="choice__title">{title}</span>
        <span className="choice__hint">{hint}</span>
      </span>
    </label>
  );
  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('wizard.choose.title')}</h2>
      </div>
      <fieldset className="card__body choice-list">
        <legend className="visually-hidden">{t('wizard.choose.title')}</legend>
        {option('manual', t('wizard.choose.manual'), t('wizard.choose.manualHint'))}
        {option('import', t('wizard.choose.import'), t('wizard.choose.importHint'))}
      </fieldset>
      <div className="form-actions card__body">
        <Button onClick={onBack}>{t('wizard.back')}</Button>
        <Button variant="primary" onClick={() => onChoose(mode)}>
          {t('wizard.next')}
        </Button>
      </div>
    </div>
  );
}
