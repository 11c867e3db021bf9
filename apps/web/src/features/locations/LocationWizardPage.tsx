import type { Network, NetworkBody } from '@palisade/contracts';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '@/components/Button';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { ImportStep } from './ImportStep';
import { LocationForm } from './LocationForm';
import { MapDevicesStep } from './MapDevicesStep';
import { type SetupMode, WizardChoose, WizardWelcome } from './WizardIntro';
import { type ImportedPeer, useCreateLocation } from './locations.mutations';
import '@/features/devices/devices.css';
import '@/features/users/users.css';

type Step = 'welcome' | 'choose' | 'config' | 'map' | 'done';

const STEPS: Record<SetupMode, readonly [Step, MessageKey][]> = {
  manual: [
    ['welcome', 'wizard.step.welcome'],
    ['choose', 'wizard.step.choose'],
    ['config', 'wizard.step.manual'],
    ['done', 'wizard.step.done'],
  ],
  import: [
    ['welcome', 'wizard.step.welcome'],
    ['choose', 'wizard.step.choose'],
    ['config', 'wizard.step.import'],
    ['map', 'wizard.step.map'],
    ['done', 'wizard.step.done'],
  ],
};

/** Location setup wizard: welcome → manual or import → (map imported devices) → done. */
export function LocationWizardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateLocation();
  const [step, setStep] = useState<Step>('welcome');
  const [mode, setMode] = useState<SetupMode>('manual');
  const [network, setNetwork] = useState<Network | undefined>(undefined);
  const [peers, setPeers] = useState<ImportedPeer[]>([]);
  const steps = STEPS[mode];
  const current = steps.findIndex(([s]) => s === step);
  const toList = () => void navigate({ to: '/locations' });

  const createManual = (body: NetworkBody) =>
    create.mutateAsync(body).then(
      (created) => {
        setNetwork(created);
        setStep('done');
        return undefined;
      },
      (error: unknown) => error,
    );

  return (
    <section aria-labelledby="wizard-title" className="wizard">
      <header className="page-header">
        <h1 id="wizard-title" className="page-header__title">
          {t('wizard.title')}
        </h1>
      </header>
      <ol className="wizard__steps">
        {steps.map(([s, label], i) => (
          <li key={s} aria-current={i === current ? 'step' : undefined} className={i < current ? 'is-done' : undefined}>
            {t(label)}
          </li>
        ))}
      </ol>
      {step === 'welcome' ? <WizardWelcome onStart={() => setStep('choose')} onCancel={toList} /> : null}
      {step === 'choose' ? (
        <WizardChoose
          onBack={() => setStep('welcome')}
          onChoose={(m) => {
            setMode(m);
            setStep('config');
          }}
        />
      ) : null}
      {step === 'config' && mode === 'manual' ? (
        <LocationForm
          submitLabel={t('wizard.manual.submit')}
          isPending={create.isPending}
          onSubmit={createManual}
          onCancel={() => setStep('choose')}
          cancelLabel={t('wizard.back')}
        />
      ) : null}
      {step === 'config' && mode === 'import' ? (
        <ImportStep
          onBack={() => setStep('choose')}
          onImported={(n, devices) => {
            setNetwork(n);
            setPeers(devices);
            setStep(devices.length ? 'map' : 'done');
          }}
        />
      ) : null}
      {step === 'map' && network ? (
        <MapDevicesStep network={network} peers={peers} onDone={() => setStep('done')} onBack={() => setStep('config')} onLater={toList} />
      ) : null}
      {step === 'done' && network ? (
        <div className="card">
          <div className="card__header">
            <h2 className="card__title">{t('wizard.done.title')}</h2>
          </div>
          <div className="card__body">
            <p role="status">{t('wizard.done.text', { name: network.name })}</p>
          </div>
          <div className="form-actions card__body">
            <Link to="/locations/$id" params={{ id: String(network.id) }} className="btn btn--secondary">
              {t('wizard.done.edit')}
            </Link>
            <Button onClick={toList}>{t('wizard.done.finish')}</Button>
            <Link to="/locations/$id/gateway" params={{ id: String(network.id) }} className="btn btn--primary">
              {t('wizard.done.gateway')}
            </Link>
          </div>
        </div>
      ) : null}
    </section>
  );
}
