import type { ActivityLogEntry, ActivityLogQuery } from '@palisade/contracts';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { actorText, deviceText, objectText } from './entry-text';
import { eventLabelKey, moduleLabelKey } from './event-labels';

interface ActivityTableProps {
  entries: readonly ActivityLogEntry[];
  /** Absent in the live stream, which is always newest first. */
  sort?: ActivityLogQuery['sort'];
  onSortChange?: (sort: ActivityLogQuery['sort']) => void;
  onOpen: (entry: ActivityLogEntry) => void;
  isFetching?: boolean;
  /** Ids of entries that arrived since the list was last looked at (the live stream marks them). */
  freshIds?: ReadonlySet<number>;
}

/** Date, user, IP, event, module, device, object; a row opens the entry's details. */
export function ActivityTable({ entries, sort, onSortChange, onOpen, isFetching = false, freshIds }: ActivityTableProps) {
  const { t, language } = useTranslation();
  const direction = sort === 'timestamp' ? 'ascending' : sort ? 'descending' : undefined;
  return (
    <div className="table-wrap" aria-busy={isFetching || undefined}>
      <table className={isFetching ? 'table table--stale activity-table' : 'table activity-table'}>
        <thead>
          <tr>
            <th scope="col" aria-sort={direction ?? 'none'}>
              {onSortChange ? (
                <button
                  type="button"
                  className="sort-btn"
                  onClick={() => onSortChange(sort === 'timestamp' ? '-timestamp' : 'timestamp')}
                  aria-label={sort === 'timestamp' ? t('activity.sort.toNewest') : t('activity.sort.toOldest')}
                >
                  {t('activity.col.date')}
                  <span aria-hidden="true" className="sort-btn__arrow">
                    {direction === 'ascending' ? '▲' : '▼'}
                  </span>
                </button>
              ) : (
                t('activity.col.date')
              )}
            </th>
            <th scope="col">{t('activity.col.user')}</th>
            <th scope="col" className="col-md">
              {t('activity.col.ip')}
            </th>
            <th scope="col">{t('activity.col.event')}</th>
            <th scope="col" className="col-md">
              {t('activity.col.module')}
            </th>
            <th scope="col" className="col-lg">
              {t('activity.col.device')}
            </th>
            <th scope="col" className="col-lg">
              {t('activity.col.object')}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr
              key={entry.id}
              className={freshIds?.has(entry.id) ? 'activity-row activity-row--fresh' : 'activity-row'}
              onClick={() => onOpen(entry)}
              data-entry-id={entry.id}
            >
              <td className="activity-table__date">
                <button
                  type="button"
                  className="activity-table__open"
                  onClick={(e) => {
                    e.stopPropagation();
                    onOpen(entry);
                  }}
                >
                  <time dateTime={entry.timestamp}>{formatDateTime(language, entry.timestamp)}</time>
                </button>
              </td>
              <td>{actorText(t, entry)}</td>
              <td className="col-md activity-table__ip">{entry.ip ?? ''}</td>
              <td>{t(eventLabelKey(entry.event))}</td>
              <td className="col-md">{t(moduleLabelKey(entry.module))}</td>
              <td className="col-lg">{deviceText(entry)}</td>
              <td className="col-lg">{objectText(entry)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
