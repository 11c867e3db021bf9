import type { Webhook } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { filterWebhooks } from './webhook-filter';

const hook = (id: number, url: string, enabled: boolean): Webhook => ({
  id,
  url,
  description: 'CRM',
  triggers: ['user.created'],
  enabled,
  created_at: '2026-11-24T10:00:00Z',
});
const hooks = [
  hook(1, 'https://crm.example.com/in', true),
  hook(2, 'https://CRM.example.org/hook', false),
  hook(3, 'https://chat.example.com/x', true),
];
const ids = (list: Webhook[]) => list.map((w) => w.id);

describe('webhooks overview: search by URL and filter by state (spec §2)', () => {
  it('searches the URL, ignoring case and surrounding spaces, and nothing else', () => {
    expect(ids(filterWebhooks(hooks, '  crm.EXAMPLE ', 'all'))).toEqual([1, 2]);
    expect(ids(filterWebhooks(hooks, 'CRM', 'all'))).toEqual([1, 2]);
    expect(ids(filterWebhooks(hooks, 'nothing', 'all'))).toEqual([]);
  });

  it('filters all, enabled or disabled, together with the search', () => {
    expect(ids(filterWebhooks(hooks, '', 'all'))).toEqual([1, 2, 3]);
    expect(ids(filterWebhooks(hooks, '', 'enabled'))).toEqual([1, 3]);
    expect(ids(filterWebhooks(hooks, '', 'disabled'))).toEqual([2]);
    expect(ids(filterWebhooks(hooks, 'crm', 'enabled'))).toEqual([1]);
  });
});
