import type { Gateway } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { sortGateways } from './gateway-status';

/** A location's gateways; the agent names itself after its host, so the host shows only when it differs. */
export function GatewaysTable({ gateways, onDelete }: { gateways: readonly Gateway[]; onDelete: (gateway: Gateway) => void }) {
  const { t, language } = useTranslation();
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t('gateways.col.name')}</th>
            <th scope="col">{t('gateways.col.status')}</th>
            <th scope="col" className="col-md">
              {t('gateways.col.since')}
            </th>
            <th scope="col" className="col-lg">
              {t('gateways.col.version')}
            </th>
            <th scope="col" className="col-lg">
              {t('gateways.col.revision')}
            </th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sortGateways(gateways).map((g) => (
            <tr key={g.id}>
              <td>
                <span className="gateway-cell__name">{g.name}</span>
                {g.hostname && g.hostname !== g.name ? <span className="gateway-cell__host mono">{g.hostname}</span> : null}
              </td>
              <td>
                {g.connected ? (
                  <Badge tone="success">{t('gateways.connected')}</Badge>
                ) : (
                  <Badge tone="error">{t('gateways.disconnected')}</Badge>
                )}
              </td>
              <td className="col-md">
                {g.connected ? formatDateTime(language, g.connected_at) : formatDateTime(language, g.last_seen_at ?? g.disconnected_at)}
              </td>
              <td className="col-lg mono">{g.version}</td>
              <td className="col-lg mono">
                {t('gateways.revision', { acknowledged: g.acknowledged_revision, current: g.location_revision })}
              </td>
              <td className="col-actions">
                <Button size="sm" variant="ghost" onClick={() => onDelete(g)} aria-label={t('gateways.deleteNamed', { name: g.name })}>
                  {t('common.delete')}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
