import type { Worker } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import { Menu } from '@/components/Menu';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';

/** Spec §3 Provisioner: name, IP, available or unavailable; and when it last polled. */
export function ProvisionersTable({ workers, onDelete }: { workers: readonly Worker[]; onDelete: (worker: Worker) => void }) {
  const { t, language } = useTranslation();
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t('provisioners.name')}</th>
            <th scope="col">{t('provisioners.ip')}</th>
            <th scope="col">{t('provisioners.state')}</th>
            <th scope="col" className="col-md">
              {t('provisioners.lastSeen')}
            </th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {workers.map((w) => (
            <tr key={w.id}>
              <td>{w.name}</td>
              <td className="mono">{w.ip ?? '—'}</td>
              <td>
                <Badge tone={w.available ? 'success' : 'neutral'}>
                  {t(w.available ? 'provisioners.available' : 'provisioners.unavailable')}
                </Badge>
              </td>
              <td className="col-md muted">{w.last_seen_at ? formatDateTime(language, w.last_seen_at) : t('provisioners.neverSeen')}</td>
              <td className="col-actions">
                <Menu
                  label={t('provisioners.actionsFor', { name: w.name })}
                  items={[{ label: t('common.delete'), onSelect: () => onDelete(w), isDanger: true }]}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
