import type { OAuthClient } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { Menu, type MenuItem } from '@/components/Menu';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';

export type OpenIdAppAction = 'edit' | 'toggle' | 'delete' | 'showSecret' | 'regenerateSecret';

interface OpenIdAppsTableProps {
  apps: readonly OAuthClient[];
  onAction: (action: OpenIdAppAction, app: OAuthClient) => void;
}

/** Spec §2 overview: name, client ID (with copy), redirect URIs, scopes, kind and state; actions per row. */
export function OpenIdAppsTable({ apps, onAction }: OpenIdAppsTableProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const itemsFor = (app: OAuthClient): MenuItem[] => [
    { label: t('common.edit'), onSelect: () => onAction('edit', app) },
    { label: t(app.enabled ? 'openidApps.disable' : 'openidApps.enable'), onSelect: () => onAction('toggle', app) },
    ...(app.public
      ? []
      : [
          { label: t('openidApps.showSecret'), onSelect: () => onAction('showSecret', app) },
          { label: t('openidApps.regenerateSecret'), onSelect: () => onAction('regenerateSecret', app) },
        ]),
    { label: t('common.delete'), onSelect: () => onAction('delete', app), isDanger: true },
  ];
  return (
    <div className="table-wrap">
      <table className="table openid-apps-table">
        <thead>
          <tr>
            <th scope="col">{t('openidApps.name')}</th>
            <th scope="col">{t('openidApps.clientId')}</th>
            <th scope="col" className="col-lg">
              {t('openidApps.redirectUris')}
            </th>
            <th scope="col" className="col-md">
              {t('openidApps.scopes')}
            </th>
            <th scope="col" className="col-md">
              {t('openidApps.kind')}
            </th>
            <th scope="col">{t('openidApps.state')}</th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {apps.map((app) => (
            <tr key={app.client_id}>
              <td>{app.name}</td>
              <td>
                <div className="openid-apps-table__id">
                  <span className="mono">{app.client_id}</span>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => void copy(app.client_id)}
                    aria-label={t('openidApps.copyClientIdOf', { name: app.name })}
                  >
                    {t('openidApps.copy')}
                  </Button>
                </div>
              </td>
              <td className="col-lg openid-apps-table__uris mono">
                {app.redirect_uris.map((uri) => (
                  <div key={uri}>{uri}</div>
                ))}
              </td>
              <td className="col-md mono">{app.scopes.join(' ')}</td>
              <td className="col-md">{t(app.public ? 'openidApps.kindPublic' : 'openidApps.kindConfidential')}</td>
              <td>
                <Badge tone={app.enabled ? 'success' : 'neutral'}>
                  {t(app.enabled ? 'openidApps.stateEnabled' : 'openidApps.stateDisabled')}
                </Badge>
              </td>
              <td className="col-actions">
                <Menu label={t('openidApps.actionsFor', { name: app.name })} items={itemsFor(app)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
