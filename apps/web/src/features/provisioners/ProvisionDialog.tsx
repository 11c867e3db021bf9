import type { Worker } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { userSuggestionsQueryOptions } from '@/features/users/users.queries';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useCreateWorkerJob } from './provisioners.mutations';
import { JOB_POLL_MS, workerJobQueryOptions } from './provisioners.queries';

interface ProvisionDialogProps {
  /** The stations to choose from; only available ones are offered. */
  workers: readonly Worker[];
  onClose: () => void;
  /** How often the job's state is asked for (tests shorten it). */
  pollMs?: number;
}

/**
 * Provision a YubiKey: pick a user and an available station, queue the job, then follow its state
 * (spec §4: in progress, error, success). The poll stops at a final state or when the dialog closes.
 */
export function ProvisionDialog({ workers, onClose, pollMs = JOB_POLL_MS }: ProvisionDialogProps) {
  const { t } = useTranslation();
  const available = workers.filter((w) => w.available);
  const [username, setUsername] = useState('');
  const listId = useId();
  // Suggestions come from a server search (the first matches), never the whole user list.
  const suggestions = useQuery(userSuggestionsQueryOptions(useDebouncedValue(username.trim(), 250)));
  const [worker, setWorker] = useState(available[0]?.name ?? '');
  const [jobId, setJobId] = useState<number | undefined>(undefined);
  const create = useCreateWorkerJob();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() === '' || worker === '') return;
    create.mutate({ username: username.trim(), worker }, { onSuccess: setJobId });
  };

  if (jobId !== undefined) {
    return (
      <Dialog
        title={t('provisioners.provisionTitle')}
        isOpen
        onClose={onClose}
        footer={<Button onClick={onClose}>{t('common.close')}</Button>}
      >
        <JobStatus id={jobId} pollMs={pollMs} />
      </Dialog>
    );
  }

  return (
    <Dialog
      title={t('provisioners.provisionTitle')}
      isOpen
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" type="submit" form="provision-form" isLoading={create.isPending} disabled={available.length === 0}>
            {t('provisioners.provision')}
          </Button>
        </>
      }
    >
      <form id="provision-form" className="form-grid" onSubmit={onSubmit} noValidate>
        <p className="form-grid__wide muted">{t('provisioners.provisionHint')}</p>
        <TextField label={t('provisioners.user')} value={username} onValueChange={setUsername} autoComplete="off" list={listId} required />
        <datalist id={listId}>
          {suggestions.data?.items.map((u) => (
            <option key={u.id} value={u.username}>{`${u.first_name} ${u.last_name}`}</option>
          ))}
        </datalist>
        {available.length === 0 ? (
          <p className="form-grid__wide" role="alert">
            {t('provisioners.noneAvailable')}
          </p>
        ) : (
          <SelectField
            label={t('provisioners.station')}
            value={worker}
            options={available.map((w) => ({ value: w.name, label: w.name }))}
            onValueChange={setWorker}
          />
        )}
        {create.isError ? (
          <p className="form-grid__wide field__error" role="alert">
            {problemMessage(t, create.error)}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

function JobStatus({ id, pollMs }: { id: number; pollMs: number }) {
  const { t } = useTranslation();
  const job = useQuery(workerJobQueryOptions(id, pollMs));
  if (job.isError) {
    return <p role="alert">{t('provisioners.statusError')}</p>;
  }
  if (!job.data || job.data.state === 'in_progress') {
    return (
      <p role="status" aria-live="polite">
        {t('provisioners.inProgress')}
      </p>
    );
  }
  if (job.data.state === 'error') {
    return (
      <div role="alert">
        <p>
          <strong>{t('provisioners.failed')}</strong>
        </p>
        {job.data.error ? <p className="mono">{job.data.error}</p> : null}
      </div>
    );
  }
  return <p role="status">{t('provisioners.succeeded', { user: job.data.username, serial: job.data.serial ?? '' })}</p>;
}
