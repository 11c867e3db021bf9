import type { NetworkDevice, PendingNetworkDevice } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPage } from '@/components/ListPage';
import { Pagination } from '@/components/Pagination';
import { QueryStates } from '@/components/QueryStates';
import { SearchField } from '@/components/SearchField';
import { useTranslation } from '@/i18n/use-translation';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { DeletePendingDialog } from './DeletePendingDialog';
import { NetworkDeviceDialogs } from './NetworkDeviceDialogs';
import { NetworkDevicesTable, type RowAction } from './NetworkDevicesTable';
import { networkDevicesQueryOptions, pendingNetworkDevicesQueryOptions } from './network-devices.queries';
import '@/features/users/users.css';
import '@/features/devices/devices.css';
import '@/features/locations/locations.css';

export type PageDialog = { kind: RowAction; device: NetworkDevice } | { kind: 'add' } | undefined;

/** Pending enrollments are few: searched here with the list's text fields. */
const matches = (p: PendingNetworkDevice, search: string) =>
  [p.name, p.location_name, p.description ?? '', ...p.assigned_ips].some((v) => v.toLowerCase().includes(search.toLowerCase()));

/** Standalone network devices: server-paged and searchable. */
export function NetworkDevicesPage() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 300);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(50);
  const [dialog, setDialog] = useState<PageDialog>(undefined);
  const [pendingToDelete, setPendingToDelete] = useState<PendingNetworkDevice | undefined>(undefined);
  const list = useQuery(networkDevicesQueryOptions({ page, per_page: perPage, ...(search ? { search } : {}) }));
  const pendingQuery = useQuery(pendingNetworkDevicesQueryOptions);
  const pending = page === 1 ? (pendingQuery.data ?? []).filter((p) => !search || matches(p, search)) : [];

  return (
    <ListPage
      titleId="network-devices-title"
      title={t('networkDevices.title')}
      addText={t('networkDevices.addButton')}
      onAdd={() => setDialog({ kind: 'add' })}
      toolbar={
        <SearchField
          id="network-device-search"
          label={t('networkDevices.search')}
          placeholder={t('networkDevices.searchPlaceholder')}
          value={text}
          onValueChange={(value) => {
            setText(value);
            setPage(1);
          }}
        />
      }
      dialogs={
        <>
          <NetworkDeviceDialogs dialog={dialog} onClose={() => setDialog(undefined)} />
          <DeletePendingDialog device={pendingToDelete} onClose={() => setPendingToDelete(undefined)} />
        </>
      }
    >
      <QueryStates
        query={list}
        errorTitle={t('networkDevices.loadError')}
        empty={(data) =>
          data.items.length === 0 && pending.length === 0
            ? { title: search ? t('networkDevices.noMatch') : t('networkDevices.empty'), hint: t('networkDevices.emptyHint') }
            : undefined
        }
      >
        {(data) => (
          <>
            <NetworkDevicesTable
              devices={data.items}
              pending={pending}
              isFetching={list.isPlaceholderData}
              onAction={(kind, device) => setDialog({ kind, device })}
              onDeletePending={setPendingToDelete}
            />
            <Pagination
              page={page}
              perPage={perPage}
              total={data.total}
              onPageChange={setPage}
              onPerPageChange={(n) => {
                setPerPage(n);
                setPage(1);
              }}
            />
          </>
        )}
      </QueryStates>
    </ListPage>
  );
}
