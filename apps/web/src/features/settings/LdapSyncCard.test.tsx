import type { LdapSyncResult } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { LdapSyncCard } from './LdapSyncCard';

const PLAN: LdapSyncResult = {
  dry_run: true,
  authoritative_source: 'ldap',
  changes: [
    { side: 'palisade', kind: 'create_user', username: 'ann', dn: 'uid=ann,ou=people,dc=example,dc=com' },
    { side: 'palisade', kind: 'create_user', username: 'bob', dn: 'uid=bob,ou=people,dc=example,dc=com' },
    { side: 'palisade', kind: 'update_user', username: 'carol', fields: ['first_name', 'email'] },
    { side: 'palisade', kind: 'add_member', username: 'ann', group: 'vpn' },
  ],
  skipped: [{ username: 'admin', change: 'disable_user', reason: 'last_admin' }],
};

let posts: Record<string, unknown>[] = [];
let plan: LdapSyncResult = PLAN;
let lastRuns: unknown[] = [];

function renderCard() {
  setFetchHandler(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/v1/activity_log') return jsonResponse(200, { items: lastRuns, page: 1, per_page: 1, total: lastRuns.length });
    const body = (await request.json()) as { dry_run: boolean };
    posts.push(body);
    return jsonResponse(200, body.dry_run ? plan : { ...plan, dry_run: false, applied: plan.changes.length, failed: [] });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <LdapSyncCard />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  posts = [];
  plan = PLAN;
  lastRuns = [];
});

describe('Settings › LDAP › Sync', () => {
  it('previews the changes grouped by side and kind with counts, and the skipped ones', async () => {
    renderCard();
    await screen.findByText('No sync has run yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Preview sync' }));
    const dialog = await screen.findByRole('dialog', { name: 'Preview sync' });
    expect(posts).toEqual([{ dry_run: true }]);
    const creates = within(dialog).getByRole('region', { name: 'Palisade: create user' });
    expect(within(creates).getByText('Palisade: create user (2)')).toBeTruthy();
    expect(
      within(creates)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['ann', 'bob']);
    expect(within(dialog).getByText('carol (first_name, email)')).toBeTruthy();
    expect(within(dialog).getByText('ann → vpn')).toBeTruthy();
    expect(within(dialog).getByText(/^admin: the last active administrator/)).toBeTruthy();
  });

  it('says "Nothing to change" when the plan is empty', async () => {
    plan = { ...PLAN, changes: [], skipped: [] };
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Preview sync' }));
    const dialog = await screen.findByRole('dialog', { name: 'Preview sync' });
    expect(within(dialog).getByText('Nothing to change')).toBeTruthy();
  });

  it('runs a sync and shows the last run from the activity log', async () => {
    lastRuns = [
      {
        id: 1,
        timestamp: '2026-11-24T20:00:00Z',
        actor_type: 'system',
        module: 'ldap',
        event: 'ldap.sync_completed',
        details: { applied: 7, failed: 1, skipped: 2 },
      },
    ];
    renderCard();
    await waitFor(() => expect(screen.getByTestId('ldap-sync-last').textContent).toMatch(/Applied: 7, failed: 1, skipped: 2\.$/));
    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(posts).toEqual([{ dry_run: false }]));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
