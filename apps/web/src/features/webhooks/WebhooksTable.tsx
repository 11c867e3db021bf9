import type { Webhook } from '@palisade/contracts';
import { Link } from '@tanstack/react-router';
import { Badge } from '@/components/Badge';
import { Menu } from '@/components/Menu';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { WebhookOutcome } from './WebhookStatus';
import { triggerLabelKey } from './webhook-form';

export type WebhookAction = 'edit' | 'toggle' | 'delete';

interface WebhooksTableProps {
  webhooks: readonly Webhook[];
  onAction: (action: WebhookAction, webhook: Webhook) => void;
}

/** Spec §2 overview: URL, description, triggers, enabled, and the last delivery's outcome. */
export function WebhooksTable({ webhooks, onAction }: WebhooksTableProps) {
  const { t, language } = useTranslation();
  return (
    <div className="table-wrap">
      <table className="table webhooks-table">
        <thead>
          <tr>
            <th scope="col">{t('webhooks.url')}</th>
            <th scope="col" className="col-lg">
              {t('webhooks.description')}
            </th>
            <th scope="col" className="col-md">
              {t('webhooks.triggers')}
            </th>
            <th scope="col">{t('webhooks.state')}</th>
            <th scope="col">{t('webhooks.lastDelivery')}</th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((w) => (
            <tr key={w.id}>
              <td className="webhooks-table__url">
                <Link to="/webhooks/$id" params={{ id: String(w.id) }} className="mono">
                  {w.url}
                </Link>
              </td>
              <td className="col-lg muted">{w.description}</td>
              <td className="col-md">{w.triggers.map((trigger) => t(triggerLabelKey(trigger))).join(', ')}</td>
              <td>
                <Badge tone={w.enabled ? 'success' : 'neutral'}>{t(w.enabled ? 'webhooks.stateEnabled' : 'webhooks.stateDisabled')}</Badge>
              </td>
              <td>
                <WebhookOutcome outcome={w.last_status} />
                {w.last_attempt_at ? <div className="muted webhooks-table__when">{formatDateTime(language, w.last_attempt_at)}</div> : null}
              </td>
              <td className="col-actions">
                <Menu
                  label={t('webhooks.actionsFor', { url: w.url })}
                  items={[
                    { label: t('common.edit'), onSelect: () => onAction('edit', w) },
                    { label: t(w.enabled ? 'webhooks.disable' : 'webhooks.enable'), onSelect: () => onAction('toggle', w) },
                    { label: t('common.delete'), onSelect: () => onAction('delete', w), isDanger: true },
                  ]}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
