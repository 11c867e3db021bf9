import type { OAuthClient } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { SearchField } from '@/components/SearchField';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { DeleteOpenIdAppDialog } from './DeleteOpenIdAppDialog';
import { OpenIdAppDialog } from './OpenIdAppDialog';
import { OpenIdAppSecretDialog, type SecretDialogMode } from './OpenIdAppSecretDialog';
import { type OpenIdAppAction, OpenIdAppsTable } from './OpenIdAppsTable';
import { filterOpenIdApps, OPENID_APP_STATE_FILTERS, type OpenIdAppStateFilter } from './openid-app-filter';
import { useSetOpenIdAppState } from './openid-apps.mutations';
import { openIdAppsQueryOptions } from './openid-apps.queries';
import '@/features/users/users.css';
import './openid-apps.css';

type PageDialog =
  | { kind: 'add' }
  | { kind: 'edit' | 'delete'; app: OAuthClient }
  | { kind: 'secret'; app: OAuthClient; mode: SecretDialogMode; secret?: string }
  | undefined;

const FILTER_LABELS = {
  all: 'openidApps.filter.all',
  enabled: 'openidApps.filter.enabled',
  disabled: 'openidApps.filter.disabled',
} as const;

/** Spec §2 OpenID apps overview: search, filter, add, edit, delete, enable, disable, copy ID, show/regenerate secret. */
export function OpenIdAppsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [state, setState] = useState<OpenIdAppStateFilter>('all');
  const [dialog, setDialog] = useState<PageDialog>(undefined);
  const list = useQuery(openIdAppsQueryOptions);
  const setEnabled = useSetOpenIdAppState();

  const toggle = (app: OAuthClient) =>
    setEnabled.mutate(
      { id: app.client_id, enabled: !app.enabled },
      {
        onSuccess: (saved) =>
          pushToast({
            id: `openid-app-state-${saved.client_id}`,
            kind: 'success',
            message: t(saved.enabled ? 'openidApps.toast.enabled' : 'openidApps.toast.disabled'),
          }),
        onError: (error) => pushToast({ id: `openid-app-state-error-${app.client_id}`, kind: 'error', message: problemMessage(t, error) }),
      },
    );
  const onAction = (action: OpenIdAppAction, app: OAuthClient) => {
    if (action === 'toggle') return toggle(app);
    if (action === 'showSecret') return setDialog({ kind: 'secret', app, mode: 'show' });
    if (action === 'regenerateSecret') return setDialog({ kind: 'secret', app, mode: 'regenerate' });
    setDialog({ kind: action, app });
  };
  const close = () => setDialog(undefined);
  const onSecret = (app: OAuthClient, secret: string) => setDialog({ kind: 'secret', app, mode: 'new', secret });

  const shown = list.data ? filterOpenIdApps(list.data, search, state) : [];
  return (
    <section aria-labelledby="openid-apps-title">
      <header className="page-header">
        <h1 id="openid-apps-title" className="page-header__title">
          {t('openidApps.title')}
        </h1>
        <div className="page-header__actions">
          <Button variant="primary" onClick={() => setDialog({ kind: 'add' })}>
            {t('openidApps.add')}
          </Button>
        </div>
      </header>
      <div className="card">
        <div className="toolbar">
          <SearchField
            id="openid-app-search"
            label={t('openidApps.search')}
            placeholder={t('openidApps.searchPlaceholder')}
            value={search}
            onValueChange={setSearch}
          />
          <SelectField
            label={t('openidApps.filter.label')}
            className="toolbar__filter"
            value={state}
            options={OPENID_APP_STATE_FILTERS.map((value) => ({ value, label: t(FILTER_LABELS[value]) }))}
            onValueChange={setState}
          />
        </div>
        {list.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : list.isError ? (
          <StateMessage kind="error" title={t('openidApps.loadError')} onRetry={() => void list.refetch()} />
        ) : shown.length === 0 ? (
          <StateMessage
            kind="empty"
            title={list.data.length === 0 ? t('openidApps.empty') : t('openidApps.noMatch')}
            hint={list.data.length === 0 ? t('openidApps.emptyHint') : undefined}
          />
        ) : (
          <OpenIdAppsTable apps={shown} onAction={onAction} />
        )}
      </div>
      {dialog?.kind === 'add' ? <OpenIdAppDialog onClose={close} onSecret={onSecret} /> : null}
      {dialog?.kind === 'edit' ? <OpenIdAppDialog app={dialog.app} onClose={close} onSecret={onSecret} /> : null}
      {dialog?.kind === 'delete' ? <DeleteOpenIdAppDialog app={dialog.app} onClose={close} /> : null}
      {dialog?.kind === 'secret' ? (
        <OpenIdAppSecretDialog app={dialog.app} mode={dialog.mode} secret={dialog.secret} onClose={close} />
      ) : null}
    </section>
  );
}
