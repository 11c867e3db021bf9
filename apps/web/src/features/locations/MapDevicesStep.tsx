import type { Network } from '@palisade/contracts';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { pushToast } from '@/components/toast-store';
import { shortKey } from '@/features/devices/config-text';
import { useTranslation } from '@/i18n/use-translation';
import { issuesFromProblem } from '@/lib/field-errors';
import { problemMessage } from '@/lib/problem-message';
import { MapDeviceRow } from './MapDeviceRow';
import { type ImportedPeer, useMapDevices } from './locations.mutations';
import { type MapRow, type RowErrors, rowErrorsFromServer, rowsFromImport, rowsToBody, validateRows } from './map-devices';

interface MapDevicesStepProps {
  network: Network;
  peers: readonly ImportedPeer[];
  onDone: () => void;
  onBack: () => void;
  /** Leaves the peers waiting with the location (`GET /network/{id}/devices` brings them back). */
  onLater: () => void;
}

/** Map each imported peer to a user, a device name and its IPs; invalid rows are flagged first. */
export function MapDevicesStep({ network, peers, onDone, onBack, onLater }: MapDevicesStepProps) {
  const { t } = useTranslation();
  const map = useMapDevices();
  const [rows, setRows] = useState<MapRow[]>(() => rowsFromImport(peers));
  const [errors, setErrors] = useState<Map<number, RowErrors>>(new Map());
  const pending = rows.filter((r) => !r.isExisting).length;

  const update = (index: number, change: Partial<MapRow>) => {
    setRows((all) => all.map((r, i) => (i === index ? { ...r, ...change } : r)));
    setErrors((all) => {
      const next = new Map(all);
      const rowErrors = { ...next.get(index) };
      for (const key of Object.keys(change)) delete rowErrors[key as keyof RowErrors];
      next.set(index, rowErrors);
      return next;
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateRows(rows, network.address);
    setErrors(found);
    if (found.size > 0) return;
    if (pending === 0) return onDone();
    // Not mutate()'s own callbacks: the invalidation can refetch the pending peers (now none) and
    // unmount this step before they run, losing the toast and the way on. The promise settles anyway.
    map.mutateAsync({ id: network.id, devices: rowsToBody(rows) }).then(
      () => {
        pushToast({ id: `mapped-${network.id}`, kind: 'success', message: t('wizard.map.saved', { count: pending }) });
        onDone();
      },
      (error: unknown) => {
        const issues = issuesFromProblem(error);
        if (issues) setErrors(rowErrorsFromServer(rows, issues));
        else pushToast({ id: 'map-error', kind: 'error', message: problemMessage(t, error) });
      },
    );
  };

  const invalidCount = [...errors.values()].filter((e) => Object.keys(e).length > 0).length;
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={t('wizard.map.title')}>
      <div className="card__header">
        <h2 className="card__title">{t('wizard.map.title')}</h2>
      </div>
      <div className="card__body">
        <p className="muted map-intro">{t('wizard.map.intro', { count: rows.length, name: network.name })}</p>
        <FormErrorBanner>{invalidCount > 0 ? t('wizard.map.invalid', { count: invalidCount }) : null}</FormErrorBanner>
      </div>
      <div className="table-wrap">
        <table className="table map-table">
          <caption className="visually-hidden">{t('wizard.map.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('devices.publicKey')}</th>
              <th scope="col">{t('devices.name')}</th>
              <th scope="col">{t('wizard.map.ips')}</th>
              <th scope="col">{t('wizard.map.user')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <MapDeviceRow
                key={row.wireguard_pubkey}
                row={row}
                label={shortKey(row.wireguard_pubkey)}
                errors={errors.get(index) ?? {}}
                onChange={(change) => update(index, change)}
              />
            ))}
          </tbody>
        </table>
      </div>
      <div className="form-actions card__body">
        <Button onClick={onBack} className="form-actions__back">
          {t('wizard.back')}
        </Button>
        {pending > 0 ? (
          <Button
            onClick={() => {
              pushToast({ id: `map-later-${network.id}`, kind: 'info', message: t('wizard.map.leftPending', { count: pending }) });
              onLater();
            }}
          >
            {t('wizard.map.later')}
          </Button>
        ) : null}
        <Button type="submit" variant="primary" isLoading={map.isPending}>
          {t('wizard.map.submit')}
        </Button>
      </div>
    </form>
  );
}
