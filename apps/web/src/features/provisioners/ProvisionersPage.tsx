import type { Worker } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { DeleteProvisionerDialog } from './DeleteProvisionerDialog';
import { ProvisionDialog } from './ProvisionDialog';
import { ProvisionersTable } from './ProvisionersTable';
import { filterProvisioners, PROVISIONER_FILTERS, type ProvisionerFilter } from './provisioner-filter';
import { provisionersQueryOptions } from './provisioners.queries';
import { StationSetupCard } from './StationSetupCard';
import '@/features/users/users.css';
import './provisioners.css';

type PageDialog = { kind: 'delete'; worker: Worker } | { kind: 'provision' } | undefined;

const FILTER_LABELS = {
  all: 'provisioners.filter.all',
  available: 'provisioners.filter.available',
  unavailable: 'provisioners.filter.unavailable',
} as const;

/** Spec §2 Provisioners overview: stations with filter and delete, YubiKey provisioning, station setup. */
export function ProvisionersPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<ProvisionerFilter>('all');
  const [dialog, setDialog] = useState<PageDialog>(undefined);
  const list = useQuery(provisionersQueryOptions);
  const shown = list.data ? filterProvisioners(list.data, filter) : [];
  return (
    <section aria-labelledby="provisioners-title" className="provisioners-page">
      <header className="page-header">
        <h1 id="provisioners-title" className="page-header__title">
          {t('provisioners.title')}
        </h1>
        <div className="page-header__actions">
          <Button variant="primary" onClick={() => setDialog({ kind: 'provision' })} disabled={!list.data}>
            {t('provisioners.provisionTitle')}
          </Button>
        </div>
      </header>
      <div className="card">
        <div className="toolbar">
          <SelectField
            label={t('provisioners.filter.label')}
            className="toolbar__filter"
            value={filter}
            options={PROVISIONER_FILTERS.map((value) => ({ value, label: t(FILTER_LABELS[value]) }))}
            onValueChange={setFilter}
          />
        </div>
        {list.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : list.isError ? (
          <StateMessage kind="error" title={t('provisioners.statusError')} onRetry={() => void list.refetch()} />
        ) : shown.length === 0 ? (
          <StateMessage
            kind="empty"
            title={list.data.length === 0 ? t('provisioners.empty') : t('provisioners.noMatch')}
            hint={list.data.length === 0 ? t('provisioners.emptyHint') : undefined}
          />
        ) : (
          <ProvisionersTable workers={shown} onDelete={(worker) => setDialog({ kind: 'delete', worker })} />
        )}
      </div>
      <StationSetupCard />
      {dialog?.kind === 'provision' && list.data ? <ProvisionDialog workers={list.data} onClose={() => setDialog(undefined)} /> : null}
      {dialog?.kind === 'delete' ? <DeleteProvisionerDialog worker={dialog.worker} onClose={() => setDialog(undefined)} /> : null}
    </section>
  );
}
