import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import { SearchField } from '@/components/SearchField';
import { DEFAULT_PERIOD, parseOverviewSearch, periodChoices } from '@/features/overview/period';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { ConnectedUsersTable } from './ConnectedUsersTable';
import { connectedRows } from './connected-rows';
import { connectedUsersQueryOptions } from './connected-users.queries';
import '@/features/users/users.css';
import '@/features/overview/overview.css';

const route = getRouteApi('/_authed/_admin/connected-users');

/** Spec §2 Connected users overview: every location's users and network devices active in the period. */
export function ConnectedUsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const period = route.useSearch().period ?? DEFAULT_PERIOD;
  const [search, setSearch] = useState('');
  const stats = useQuery(connectedUsersQueryOptions(period));
  const periodOptions = periodChoices(period).map((h) => ({ value: String(h), label: t('overview.hours', { count: h }) }));
  const rows = stats.data ? connectedRows(stats.data, search) : [];

  return (
    <section aria-labelledby="connected-users-title">
      <header className="page-header">
        <h1 id="connected-users-title" className="page-header__title">
          {t('connectedUsers.title')}
        </h1>
      </header>
      <div className="card">
        <div className="toolbar">
          <SearchField
            id="connected-users-search"
            label={t('connectedUsers.search')}
            placeholder={t('connectedUsers.searchPlaceholder')}
            value={search}
            onValueChange={setSearch}
          />
          <SelectField
            className="toolbar__filter"
            label={t('overview.period')}
            value={String(period)}
            options={periodOptions}
            onValueChange={(v) => void navigate({ to: '/connected-users', search: parseOverviewSearch({ period: Number(v) }) })}
          />
        </div>
        {stats.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : stats.isError ? (
          <StateMessage
            kind="error"
            title={t('connectedUsers.loadError')}
            hint={problemMessage(t, stats.error)}
            onRetry={() => void stats.refetch()}
          />
        ) : rows.length === 0 ? (
          <StateMessage
            kind="empty"
            title={search.trim() ? t('connectedUsers.noMatch') : t('connectedUsers.empty', { count: period })}
            hint={t('connectedUsers.emptyHint')}
          />
        ) : (
          <ConnectedUsersTable rows={rows} isFetching={stats.isPlaceholderData} />
        )}
      </div>
    </section>
  );
}
