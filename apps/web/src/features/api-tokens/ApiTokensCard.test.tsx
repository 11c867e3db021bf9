import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster } from '@/components/Toaster';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ApiTokensCard } from './ApiTokensCard';

const CI = { id: 1, name: 'ci', created_at: '2026-11-20T10:00:00.000Z', last_used_at: '2026-11-21T10:00:00.000Z' };
const BACKUP = { id: 2, name: 'backup', created_at: '2026-11-22T10:00:00.000Z' };
const SECRET = `pal_AbCdEfGhIjKl_${'x'.repeat(46)}`;

function renderCard(username = 'mia') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ApiTokensCard username={username} />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('ApiTokensCard', () => {
  it('lists tokens with created and last used (or never used)', async () => {
    setFetchHandler(async () => jsonResponse(200, [CI, BACKUP]));
    renderCard();
    const list = await screen.findByRole('list', { name: 'API tokens' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]?.textContent).toMatch(/ci.*created .*last used /);
    expect(items[1]?.textContent).toMatch(/backup.*created .*never used/);
  });

  it('says so when there is none', async () => {
    setFetchHandler(async () => jsonResponse(200, []));
    renderCard();
    expect(await screen.findByText(/No API tokens yet/)).toBeTruthy();
  });

  it('shows the load error with Try again', async () => {
    setFetchHandler(async () => problemResponse(500, 'internal'));
    renderCard();
    expect(await screen.findByText('Could not load API tokens')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('creates a token and shows it once with Copy and the warning; after closing it is gone from the page', async () => {
    const calls: string[] = [];
    let tokens: unknown[] = [];
    setFetchHandler(async (request) => {
      const { pathname } = new URL(request.url);
      calls.push(`${request.method} ${pathname}`);
      if (request.method === 'GET') return jsonResponse(200, tokens);
      if (request.method === 'POST' && pathname === '/api/v1/user/mia/api_token') {
        expect(await request.json()).toEqual({ name: 'deploy' });
        tokens = [{ id: 3, name: 'deploy', created_at: '2026-11-23T10:00:00.000Z' }];
        return jsonResponse(201, { id: 3, name: 'deploy', created_at: '2026-11-23T10:00:00.000Z', token: SECRET });
      }
      return problemResponse(404, 'request.not_found');
    });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Add API token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API token' });
    // The name is required: nothing is sent without one.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true'));
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'deploy' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('dialog', { name: 'API token deploy' });
    expect((within(shown).getByRole('textbox', { name: 'Token' }) as HTMLInputElement).value).toBe(SECRET);
    expect(shown.textContent).toContain('You will not see it again');
    expect(within(shown).getByRole('button', { name: 'Copy token' })).toBeTruthy();
    fireEvent.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('deploy')).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it("says 'Could not add API token. Please try again later.' when creating fails, and shows a taken name on the field", async () => {
    let answer = () => problemResponse(500, 'internal');
    setFetchHandler(async (request) => (request.method === 'GET' ? jsonResponse(200, [CI]) : answer()));
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Add API token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API token' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'again' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('Could not add API token. Please try again later.')).toBeTruthy();
    answer = () => problemResponse(400, 'api_token.name_taken', [{ path: 'name', code: 'name_taken', message: 'taken' }]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('Name already taken')).toBeTruthy();
  });

  it('renames a token', async () => {
    const bodies: unknown[] = [];
    let tokens = [CI];
    setFetchHandler(async (request) => {
      const { pathname } = new URL(request.url);
      if (request.method === 'GET') return jsonResponse(200, tokens);
      if (request.method === 'POST' && pathname === '/api/v1/user/mia/api_token/1/rename') {
        bodies.push(await request.json());
        tokens = [{ ...CI, name: 'ci-main' }];
        return jsonResponse(200, tokens[0]);
      }
      return problemResponse(404, 'request.not_found');
    });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Rename ci' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename API token ci' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'ci-main' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies).toEqual([{ name: 'ci-main' }]);
    expect(await screen.findByText('ci-main')).toBeTruthy();
  });

  it('deletes a token only after confirming', async () => {
    const calls: string[] = [];
    let tokens = [CI, BACKUP];
    setFetchHandler(async (request) => {
      const { pathname } = new URL(request.url);
      calls.push(`${request.method} ${pathname}`);
      if (request.method === 'GET') return jsonResponse(200, tokens);
      if (request.method === 'DELETE' && pathname === '/api/v1/user/mia/api_token/1') {
        tokens = [BACKUP];
        return new Response(null, { status: 204 });
      }
      return problemResponse(404, 'request.not_found');
    });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete ci' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete API token' });
    expect(dialog.textContent).toContain('Requests with the token ci will be refused at once');
    expect(calls).not.toContain('DELETE /api/v1/user/mia/api_token/1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toContain('DELETE /api/v1/user/mia/api_token/1'));
    await waitFor(() => expect(screen.queryByText('ci')).toBeNull());
    expect(screen.getByText('backup')).toBeTruthy();
  });
});
