import type { ActivityLogEntry } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Pagination } from '@/components/Pagination';
import { StateMessage } from '@/components/StateMessage';
import { useAuthStore } from '@/features/auth/auth-store';
import { formatNumber } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { ActivityDrawer } from './ActivityDrawer';
import { ActivityTable } from './ActivityTable';
import { ActivityTabs } from './ActivityTabs';
import { ActivityToolbar } from './ActivityToolbar';
import { activityListQueryOptions } from './activity-log.queries';
import { type ActivitySearch, activityExportUrl, hasActivityFilter, toActivityListParams } from './activity-search';
import '@/features/users/users.css';
import '@/features/settings/settings.css';
import './activity-log.css';

/** The activity log: administrators see every entry, other users their own (the API scopes it). */
export function ActivityLogPage() {
  const { t, language } = useTranslation();
  const isAdmin = useAuthStore((s) => s.user?.is_admin ?? false);
  const search = useSearch({ from: '/_authed/activity-log/' });
  const navigate = useNavigate({ from: '/activity-log/' });
  const params = toActivityListParams(search, Date.now());
  const list = useQuery(activityListQueryOptions(params));
  const [open, setOpen] = useState<ActivityLogEntry | undefined>(undefined);

  const setSearch = (patch: Partial<ActivitySearch>) =>
    void navigate({ search: (prev: ActivitySearch) => ({ ...prev, ...patch }), replace: true });
  const setFilter = (patch: Partial<ActivitySearch>) => setSearch({ ...patch, page: undefined });
  const isFiltered = hasActivityFilter(search);

  return (
    <section aria-labelledby="activity-title">
      <header className="page-header">
        <h1 id="activity-title" className="page-header__title">
          {t('activity.title')}
        </h1>
        <div className="page-header__actions">
          <a className="btn btn--secondary" href={activityExportUrl(search, 'csv', Date.now())} download>
            {t('activity.export.csv')}
          </a>
          <a className="btn btn--secondary" href={activityExportUrl(search, 'jsonl', Date.now())} download>
            {t('activity.export.jsonl')}
          </a>
        </div>
      </header>
      <ActivityTabs />
      <div className="card">
        <ActivityToolbar
          search={search}
          isAdmin={isAdmin}
          onChange={setFilter}
          onClear={() => void navigate({ search: (prev: ActivitySearch) => ({ per_page: prev.per_page, sort: prev.sort }), replace: true })}
        />
        {list.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : list.isError ? (
          <StateMessage kind="error" title={t('activity.loadError')} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          isFiltered ? (
            <StateMessage kind="empty" title={t('activity.emptyFiltered')} hint={t('activity.emptyFilteredHint')} />
          ) : (
            <StateMessage kind="empty" title={t('activity.empty')} hint={t('activity.emptyHint')} />
          )
        ) : (
          <>
            <ActivityTable
              entries={list.data.items}
              sort={params.sort}
              onSortChange={(sort) => setSearch({ sort, page: undefined })}
              onOpen={setOpen}
              isFetching={list.isPlaceholderData}
            />
            {list.data.total_capped ? (
              <p className="activity-live__note muted">{t('activity.totalCapped', { total: formatNumber(language, list.data.total) })}</p>
            ) : null}
            <Pagination
              page={list.data.page}
              perPage={list.data.per_page}
              total={list.data.total}
              onPageChange={(page) => setSearch({ page })}
              onPerPageChange={(per_page) => setSearch({ per_page, page: undefined })}
            />
          </>
        )}
      </div>
      <ActivityDrawer entry={open} onClose={() => setOpen(undefined)} />
    </section>
  );
}
