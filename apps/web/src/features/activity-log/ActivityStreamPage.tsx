import type { ActivityLogEntry } from '@palisade/contracts';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { ActivityDrawer } from './ActivityDrawer';
import { ActivityTable } from './ActivityTable';
import { ActivityTabs } from './ActivityTabs';
import { STREAM_CAP, type StreamConnection } from './activity-stream';
import { useActivityStream } from './use-activity-stream';
import '@/features/users/users.css';
import '@/features/settings/settings.css';
import './activity-log.css';

const CONNECTION_LABELS: Record<StreamConnection | 'paused', MessageKey> = {
  connecting: 'activity.live.connecting',
  live: 'activity.live.live',
  reconnecting: 'activity.live.reconnecting',
  stopped: 'activity.live.stopped',
  paused: 'activity.live.paused',
};

/** New entries appear at the top as they are recorded, without reloading the page. */
export function ActivityStreamPage() {
  const { t } = useTranslation();
  const [stream, { pause, resume }] = useActivityStream();
  const [open, setOpen] = useState<ActivityLogEntry | undefined>(undefined);
  const shown = stream.isPaused && stream.connection === 'live' ? 'paused' : stream.connection;

  return (
    <section aria-labelledby="activity-title">
      <header className="page-header">
        <h1 id="activity-title" className="page-header__title">
          {t('activity.title')}
        </h1>
        <div className="page-header__actions">
          <span className={`activity-live__state activity-live__state--${shown}`} role="status">
            {t(CONNECTION_LABELS[shown])}
          </span>
          {stream.isPaused ? (
            <Button variant="primary" onClick={resume} disabled={stream.connection === 'stopped'}>
              {stream.newCount ? t('activity.live.resumeWithNew', { count: stream.newCount }) : t('activity.live.resume')}
            </Button>
          ) : (
            <Button onClick={pause} disabled={stream.connection === 'stopped'}>
              {t('activity.live.pause')}
            </Button>
          )}
        </div>
      </header>
      <ActivityTabs />
      <div className="card">
        {stream.resumedCount ? (
          <p className="activity-live__note" role="status">
            {t('activity.live.newSincePause', { count: stream.resumedCount })}
          </p>
        ) : null}
        {stream.entries.length === 0 ? (
          stream.connection === 'connecting' ? (
            <StateMessage kind="loading" title={t('common.loading')} />
          ) : stream.connection === 'stopped' ? (
            <StateMessage kind="error" title={t('activity.live.stoppedHint')} />
          ) : (
            <StateMessage kind="empty" title={t('activity.live.empty')} hint={t('activity.live.emptyHint')} />
          )
        ) : (
          <ActivityTable entries={stream.entries} onOpen={setOpen} freshIds={stream.freshIds} />
        )}
        {stream.entries.length >= STREAM_CAP ? (
          <p className="activity-live__note muted">{t('activity.live.capped', { count: STREAM_CAP })}</p>
        ) : null}
      </div>
      <ActivityDrawer entry={open} onClose={() => setOpen(undefined)} />
    </section>
  );
}
