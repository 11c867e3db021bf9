import type { NetworkBody } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { LocationForm } from './LocationForm';
import { PendingPeersNote } from './PendingPeersNote';
import { locationToValues } from './location-form';
import { useDeleteLocation, useUpdateLocation } from './locations.mutations';
import { locationQueryOptions } from './locations.queries';

export function LocationEditPage() {
  const { t } = useTranslation();
  const id = Number(useParams({ from: '/_authed/_admin/locations/$id' }).id);
  const navigate = useNavigate();
  const location = useQuery(locationQueryOptions(id));
  const update = useUpdateLocation();
  const remove = useDeleteLocation();
  const [isDeleting, setIsDeleting] = useState(false);

  if (location.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (location.isError)
    return (
      <StateMessage
        kind="error"
        title={t('locations.loadOneError')}
        hint={problemMessage(t, location.error)}
        onRetry={() => void location.refetch()}
      />
    );

  const save = (body: NetworkBody) =>
    update.mutateAsync({ id, body }).then(
      (saved) => {
        pushToast({ id: `location-saved-${id}`, kind: 'success', message: t('locations.toast.saved', { name: saved.name }) });
        return undefined;
      },
      (error: unknown) => error,
    );

  const confirmDelete = () =>
    remove.mutate(id, {
      onSuccess: () => {
        pushToast({ id: `location-deleted-${id}`, kind: 'success', message: t('locations.toast.deleted', { name: location.data.name }) });
        void navigate({ to: '/locations' });
      },
      onError: (error) => {
        setIsDeleting(false);
        // Spec §8: the network delete failure message, unless the server named a more precise reason.
        const message = hasCode(error, 'network.not_found') ? problemMessage(t, error) : t('error.network.delete_failed');
        pushToast({ id: 'location-delete-error', kind: 'error', message });
      },
    });

  return (
    <section aria-labelledby="location-title">
      <header className="page-header">
        <div>
          <Link to="/locations" className="btn btn--link">
            ← {t('locations.back')}
          </Link>
          <h1 id="location-title" className="page-header__title">
            {t('locations.editTitle', { name: location.data.name })}
          </h1>
          <PendingPeersNote location={location.data} />
        </div>
        <div className="page-header__actions">
          <Link to="/overview/$locationId" params={{ locationId: String(id) }} className="btn btn--secondary">
            {t('nav.overview')}
          </Link>
          <Link to="/locations/$id/gateway" params={{ id: String(id) }} className="btn btn--secondary">
            {t('gateways.setupLink')}
          </Link>
        </div>
      </header>
      <LocationForm
        key={location.dataUpdatedAt}
        initial={locationToValues(location.data)}
        submitLabel={t('common.save')}
        isPending={update.isPending}
        onSubmit={save}
        extraActions={
          <Button variant="danger" className="location-form__delete" onClick={() => setIsDeleting(true)}>
            {t('locations.delete')}
          </Button>
        }
      />
      <ConfirmDialog
        title={t('locations.delete.title', { name: location.data.name })}
        isOpen={isDeleting}
        onCancel={() => setIsDeleting(false)}
        onConfirm={confirmDelete}
        confirmLabel={t('common.delete')}
        isDanger
        isPending={remove.isPending}
      >
        <p>{t('locations.delete.message', { name: location.data.name })}</p>
      </ConfirmDialog>
    </section>
  );
}
