import type { ActivityLogStream } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import { UpgradePrompt, useEnterpriseLocked } from '@/features/licence/UpgradePrompt';
import { useTranslation } from '@/i18n/use-translation';
import { DeleteStreamDialog } from './DeleteStreamDialog';
import { StreamDialog } from './StreamDialog';
import { StreamsTable } from './StreamsTable';
import { streamsQueryOptions } from './streams.queries';

type TabDialog = { kind: 'edit' | 'delete'; stream: ActivityLogStream } | { kind: 'add' } | undefined;

/**
 * Settings › Activity log streaming (spec §2, §3): destinations that receive every activity log
 * entry (Vector `http_server`, Logstash `http`), with each one's delivery state.
 */
export function ActivityLogStreamingTab() {
  const { t } = useTranslation();
  const titleId = useId();
  const streams = useQuery(streamsQueryOptions);
  const [dialog, setDialog] = useState<TabDialog>(undefined);
  const locked = useEnterpriseLocked();
  const close = () => setDialog(undefined);
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card__header settings__streams-header">
        <h2 id={titleId} className="card__title">
          {t('settings.tab.activity')} <Badge tone="primary">{t('settings.enterpriseBadge')}</Badge>
        </h2>
        <Button variant="primary" onClick={() => setDialog({ kind: 'add' })} disabled={locked}>
          {t('settings.streams.add')}
        </Button>
      </div>
      <div className="card__body settings__streams-intro">
        <p className="field__hint">{t('settings.streams.hint')}</p>
        <p className="field__hint">{t('settings.streams.enterpriseNote')}</p>
        <UpgradePrompt />
      </div>
      {streams.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : streams.isError ? (
        <StateMessage kind="error" title={t('settings.streams.loadError')} onRetry={() => void streams.refetch()} />
      ) : streams.data.length === 0 ? (
        <StateMessage kind="empty" title={t('settings.streams.empty')} hint={t('settings.streams.emptyHint')} />
      ) : (
        <StreamsTable streams={streams.data} onAction={(kind, stream) => setDialog({ kind, stream })} />
      )}
      {dialog?.kind === 'add' ? <StreamDialog onClose={close} /> : null}
      {dialog?.kind === 'edit' ? <StreamDialog stream={dialog.stream} onClose={close} /> : null}
      {dialog?.kind === 'delete' ? <DeleteStreamDialog stream={dialog.stream} onClose={close} /> : null}
    </section>
  );
}
