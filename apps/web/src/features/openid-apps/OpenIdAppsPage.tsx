import type { OAuthClient } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPage } from '@/components/ListPage';
import { QueryStates } from '@/components/QueryStates';
import { SelectField } from '@/components/SelectField';
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
    <ListPage
      titleId="openid-apps-title"
      title={t('openidApps.title')}
      addText={t('openidApps.add')}
      onAdd={() => setDialog({ kind: 'add' })}
      toolbar={
        <>
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
        </>
      }
      dialogs={
        <>
          {dialog?.kind === 'add' ? <OpenIdAppDialog onClose={close} onSecret={onSecret} /> : null}
          {dialog?.kind === 'edit' ? <OpenIdAppDialog app={dialog.app} onClose={close} onSecret={onSecret} /> : null}
          {dialog?.kind === 'delete' ? <DeleteOpenIdAppDialog app={dialog.app} onClose={close} /> : null}
          {dialog?.kind === 'secret' ? (
            <OpenIdAppSecretDialog app={dialog.app} mode={dialog.mode} secret={dialog.secret} onClose={close} />
          ) : null}
        </>
      }
    >
      <QueryStates
        query={list}
        errorTitle={t('openidApps.loadError')}
        empty={(apps) =>
          shown.length > 0
            ? undefined
            : apps.length === 0
              ? { title: t('openidApps.empty'), hint: t('openidApps.emptyHint') }
              : { title: t('openidApps.noMatch') }
        }
      >
        {() => <OpenIdAppsTable apps={shown} onAction={onAction} />}
      </QueryStates>
    </ListPage>
  );
}
