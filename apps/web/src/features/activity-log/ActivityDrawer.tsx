import type { ActivityLogEntry } from '@palisade/contracts';
import { type ReactNode, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useFocusTrap } from '@/components/use-focus-trap';
import type { MessageKey } from '@/i18n/en';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { actorText, deviceText } from './entry-text';
import { eventLabelKey, moduleLabelKey } from './event-labels';

/** One entry with every field and its details JSON, in a panel at the side of the page. */
export function ActivityDrawer({ entry, onClose }: { entry: ActivityLogEntry | undefined; onClose: () => void }) {
  if (!entry) return null;
  return createPortal(<DrawerPanel entry={entry} onClose={onClose} />, document.body);
}

function DrawerPanel({ entry, onClose }: { entry: ActivityLogEntry; onClose: () => void }) {
  const { t, language } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  const titleId = useId();
  useFocusTrap(ref, true, onClose);
  const row = (label: MessageKey, value: ReactNode) =>
    value === undefined || value === '' ? null : (
      <div className="activity-drawer__row">
        <dt>{t(label)}</dt>
        <dd>{value}</dd>
      </div>
    );
  const object = [entry.object_type, entry.object_name ?? entry.object_id].filter(Boolean).join(': ');
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop click is a mouse shortcut; Escape and the close button are the keyboard paths
    <div className="drawer-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside ref={ref} className="activity-drawer" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <header className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {t(eventLabelKey(entry.event))}
          </h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label={t('common.closeDialog')}>
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <div className="activity-drawer__body">
          <dl className="activity-drawer__fields">
            {row('activity.col.date', <time dateTime={entry.timestamp}>{formatDateTime(language, entry.timestamp)}</time>)}
            {row('activity.detail.timestamp', <code>{entry.timestamp}</code>)}
            {row('activity.col.user', actorText(t, entry))}
            {row('activity.detail.actorType', t(`activity.actor.${entry.actor_type}`))}
            {row('activity.col.ip', entry.ip)}
            {row('activity.detail.userAgent', entry.user_agent)}
            {row('activity.col.event', <code>{entry.event}</code>)}
            {row('activity.col.module', t(moduleLabelKey(entry.module)))}
            {row('activity.col.device', deviceText(entry))}
            {row('activity.col.object', object)}
            {row('activity.detail.id', String(entry.id))}
          </dl>
          <h3 className="activity-drawer__subtitle">{t('activity.detail.details')}</h3>
          {Object.keys(entry.details).length ? (
            <pre className="activity-drawer__json">{JSON.stringify(entry.details, null, 2)}</pre>
          ) : (
            <p className="muted">{t('activity.detail.noDetails')}</p>
          )}
        </div>
      </aside>
    </div>
  );
}
