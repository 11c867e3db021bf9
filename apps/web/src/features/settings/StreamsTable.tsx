import type { ActivityLogStream } from '@palisade/contracts';
import { Menu } from '@/components/Menu';
import { useEnterpriseLocked } from '@/features/licence/UpgradePrompt';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { STREAM_KIND_LABELS } from './stream-form';

interface StreamsTableProps {
  streams: readonly ActivityLogStream[];
  onAction: (action: 'edit' | 'delete', stream: ActivityLogStream) => void;
}

/** Each destination with its delivery state: last success, last error, and how many entries it is behind. */
export function StreamsTable({ streams, onAction }: StreamsTableProps) {
  const { t, language } = useTranslation();
  // Without a licence above the free limits changes are refused: no actions to offer (docs/licensing.md).
  const locked = useEnterpriseLocked();
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t('settings.streams.name')}</th>
            <th scope="col">{t('settings.streams.kind')}</th>
            <th scope="col" className="col-md">
              {t('settings.streams.url')}
            </th>
            <th scope="col">{t('settings.streams.lastSuccess')}</th>
            <th scope="col">{t('settings.streams.lastError')}</th>
            <th scope="col">{t('settings.streams.lag')}</th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {streams.map((s) => (
            <tr key={s.id}>
              <td>
                <strong>{s.name}</strong>
              </td>
              <td>{t(STREAM_KIND_LABELS[s.kind])}</td>
              <td className="col-md mono settings__stream-url">{s.url}</td>
              <td>
                {s.state.last_success_at ? (
                  formatDateTime(language, s.state.last_success_at)
                ) : (
                  <span className="muted">{t('settings.streams.never')}</span>
                )}
              </td>
              <td>
                {s.state.last_error_at ? (
                  <>
                    {formatDateTime(language, s.state.last_error_at)}
                    {s.state.last_error ? <div className="field__error settings__stream-error">{s.state.last_error}</div> : null}
                  </>
                ) : (
                  <span className="muted">{t('settings.streams.noError')}</span>
                )}
              </td>
              <td>{t('settings.streams.lagCount', { count: s.state.lag })}</td>
              <td className="col-actions">
                {locked ? null : (
                  <Menu
                    label={t('settings.streams.actionsFor', { name: s.name })}
                    items={[
                      { label: t('common.edit'), onSelect: () => onAction('edit', s) },
                      { label: t('common.delete'), onSelect: () => onAction('delete', s), isDanger: true },
                    ]}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
