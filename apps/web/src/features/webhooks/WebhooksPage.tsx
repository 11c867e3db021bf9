import type { Webhook } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPage } from '@/components/ListPage';
import { QueryStates } from '@/components/QueryStates';
import { SelectField } from '@/components/SelectField';
import { pushToast } from '@/components/toast-store';
import { SearchField } from '@/components/SearchField';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { DeleteWebhookDialog } from './DeleteWebhookDialog';
import { WebhookDialog } from './WebhookDialog';
import { type WebhookAction, WebhooksTable } from './WebhooksTable';
import { filterWebhooks, WEBHOOK_STATE_FILTERS, type WebhookStateFilter } from './webhook-filter';
import { useSetWebhookState } from './webhooks.mutations';
import { webhooksQueryOptions } from './webhooks.queries';
import '@/features/users/users.css';
import './webhooks.css';

type PageDialog = { kind: 'edit' | 'delete'; webhook: Webhook } | { kind: 'add' } | undefined;

const FILTER_LABELS = { all: 'webhooks.filter.all', enabled: 'webhooks.filter.enabled', disabled: 'webhooks.filter.disabled' } as const;

/** Spec §2 Webhooks overview: search by URL, filter, add, edit, delete, enable, disable. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [state, setState] = useState<WebhookStateFilter>('all');
  const [dialog, setDialog] = useState<PageDialog>(undefined);
  const list = useQuery(webhooksQueryOptions);
  const setEnabled = useSetWebhookState();

  const onAction = (action: WebhookAction, webhook: Webhook) => {
    if (action !== 'toggle') return setDialog({ kind: action, webhook });
    setEnabled.mutate(
      { id: webhook.id, enabled: !webhook.enabled },
      {
        onSuccess: (saved) =>
          pushToast({
            id: `webhook-state-${saved.id}`,
            kind: 'success',
            message: t(saved.enabled ? 'webhooks.toast.enabled' : 'webhooks.toast.disabled'),
          }),
        onError: (error) => pushToast({ id: `webhook-state-error-${webhook.id}`, kind: 'error', message: problemMessage(t, error) }),
      },
    );
  };

  const shown = list.data ? filterWebhooks(list.data, search, state) : [];
  return (
    <ListPage
      titleId="webhooks-title"
      title={t('webhooks.title')}
      addText={t('webhooks.add')}
      onAdd={() => setDialog({ kind: 'add' })}
      toolbar={
        <>
          <SearchField
            id="webhook-search"
            label={t('webhooks.search')}
            placeholder={t('webhooks.searchPlaceholder')}
            value={search}
            onValueChange={setSearch}
          />
          <SelectField
            label={t('webhooks.filter.label')}
            className="toolbar__filter"
            value={state}
            options={WEBHOOK_STATE_FILTERS.map((value) => ({ value, label: t(FILTER_LABELS[value]) }))}
            onValueChange={setState}
          />
        </>
      }
      dialogs={
        <>
          {dialog?.kind === 'add' ? <WebhookDialog onClose={() => setDialog(undefined)} /> : null}
          {dialog?.kind === 'edit' ? <WebhookDialog webhook={dialog.webhook} onClose={() => setDialog(undefined)} /> : null}
          {dialog?.kind === 'delete' ? <DeleteWebhookDialog webhook={dialog.webhook} onClose={() => setDialog(undefined)} /> : null}
        </>
      }
    >
      <QueryStates
        query={list}
        errorTitle={t('webhooks.loadError')}
        empty={(webhooks) =>
          shown.length > 0
            ? undefined
            : webhooks.length === 0
              ? { title: t('webhooks.empty'), hint: t('webhooks.emptyHint') }
              : { title: t('webhooks.noMatch') }
        }
      >
        {() => <WebhooksTable webhooks={shown} onAction={onAction} />}
      </QueryStates>
    </ListPage>
  );
}
