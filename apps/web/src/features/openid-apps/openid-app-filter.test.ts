import type { OAuthClient } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { filterOpenIdApps } from './openid-app-filter';

const app = (name: string, clientId: string, enabled: boolean): OAuthClient => ({
  client_id: clientId,
  name,
  redirect_uris: ['https://app.example.com/cb'],
  scopes: ['openid'],
  public: false,
  enabled,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const APPS = [app('Grafana', 'AbCdEf0123', true), app('GitLab', 'zzTop9999', false), app('Nextcloud', 'nc-42', true)];

describe('filterOpenIdApps', () => {
  it('filters by state', () => {
    expect(filterOpenIdApps(APPS, '', 'all').map((a) => a.name)).toEqual(['Grafana', 'GitLab', 'Nextcloud']);
    expect(filterOpenIdApps(APPS, '', 'enabled').map((a) => a.name)).toEqual(['Grafana', 'Nextcloud']);
    expect(filterOpenIdApps(APPS, '', 'disabled').map((a) => a.name)).toEqual(['GitLab']);
  });

  it('searches name and client ID, ignoring case and surrounding spaces, together with the state', () => {
    expect(filterOpenIdApps(APPS, ' gr ', 'all').map((a) => a.name)).toEqual(['Grafana']);
    expect(filterOpenIdApps(APPS, 'ZZTOP', 'all').map((a) => a.name)).toEqual(['GitLab']);
    expect(filterOpenIdApps(APPS, 'zztop', 'enabled')).toEqual([]);
    expect(filterOpenIdApps(APPS, 'nothing', 'all')).toEqual([]);
  });
});
