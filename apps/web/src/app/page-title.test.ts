import { describe, expect, it } from 'vitest';
import { translate } from '@/i18n/translate';
import { documentTitle } from './page-title';

const en = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('en', key, params);
const ko = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('ko', key, params);
const pl = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('pl', key, params);
const at = (routeId: string, params: Record<string, string> = {}) => [
  { routeId: '__root__', params: {} },
  { routeId, params },
];

describe('documentTitle', () => {
  it('is "<page> · <instance name>", in the chosen language', () => {
    expect(documentTitle(en, at('/_authed/_admin/groups'), 'Acme VPN')).toBe('Groups · Acme VPN');
    expect(documentTitle(pl, at('/_authed/_admin/groups'), 'Acme VPN')).toBe('Grupy · Acme VPN');
    expect(documentTitle(en, at('/login'), 'Acme VPN')).toBe('Sign in · Acme VPN');
    expect(documentTitle(en, at('/_authed/activity-log/'), 'Acme VPN')).toBe('Activity log · Acme VPN');
    expect(documentTitle(pl, at('/_authed/activity-log/live'), 'Acme VPN')).toBe('Aktywność na żywo · Acme VPN');
    expect(documentTitle(en, at('/_authed/_admin/webhooks/'), 'Acme VPN')).toBe('Webhooks · Acme VPN');
    expect(documentTitle(ko, at('/_authed/_admin/webhooks/$id', { id: '3' }), 'Acme VPN')).toBe('전송 기록 · Acme VPN');
  });

  it("names a user's pages by the username", () => {
    expect(documentTitle(en, at('/_authed/users/$username', { username: 'anna' }), 'Acme VPN')).toBe('anna · Acme VPN');
  });

  it('says when the page is missing or its module is off; a page without a name gets the instance name', () => {
    expect(documentTitle(en, at('/_authed/_admin/groups'), 'Acme', 'notFound')).toBe('Page not found · Acme');
    expect(documentTitle(en, at('/_authed/_admin/locations/'), 'Acme', 'moduleDisabled')).toBe('Module disabled · Acme');
    expect(documentTitle(en, at('/_authed/'), 'Acme')).toBe('Acme');
  });
});
