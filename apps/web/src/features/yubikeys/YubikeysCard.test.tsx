import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { YubikeysCard } from './YubikeysCard';

const CARD = { id: 4, name: 'YubiKey 12345678', serial: '12345678', created_at: '2026-11-20T10:00:00.000Z' };
const key = (id: number, key_type: 'ssh' | 'gpg', fingerprint: string, serial?: string) => ({
  id,
  name: `key ${id}`,
  key_type,
  key: 'x',
  fingerprint,
  created_at: '2026-11-20T10:00:00.000Z',
  ...(serial ? { serial } : {}),
});

let yubikeys: unknown[];
let requests: string[];

beforeEach(() => {
  yubikeys = [CARD];
  requests = [];
  setFetchHandler(async (request) => {
    const path = new URL(request.url).pathname;
    requests.push(`${request.method} ${path}`);
    if (path === '/api/v1/user/mia/yubikey') return jsonResponse(200, yubikeys);
    if (path === '/api/v1/user/mia/auth_key')
      return jsonResponse(200, [
        key(1, 'ssh', 'SHA256:card-ssh', '12345678'),
        key(2, 'gpg', 'CARDGPG0', '12345678'),
        key(3, 'ssh', 'SHA256:laptop'),
      ]);
    if (request.method === 'DELETE' && path === '/api/v1/user/mia/yubikey/4') {
      yubikeys = [];
      return new Response(null, { status: 204 });
    }
    if (request.method === 'POST' && path === '/api/v1/user/mia/yubikey/4/rename') {
      const { name } = (await request.json()) as { name: string };
      yubikeys = [{ ...CARD, name }];
      return jsonResponse(200, yubikeys[0]);
    }
    return new Response(null, { status: 404 });
  });
});

function renderCard() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <YubikeysCard username="mia" />
    </QueryClientProvider>,
  );
}

describe('YubikeysCard', () => {
  it('lists each YubiKey with its serial and only the keys with that serial', async () => {
    renderCard();
    const list = await screen.findByRole('list', { name: 'YubiKey' });
    await waitFor(() => expect(list.textContent).toContain('2 keys on the card'));
    expect(list.textContent).toContain('Serial number 12345678');
    expect(list.textContent).toContain('SHA256:card-ssh');
    expect(list.textContent).toContain('CARDGPG0');
    expect(list.textContent).not.toContain('SHA256:laptop');
  });

  it('says when there is none', async () => {
    yubikeys = [];
    renderCard();
    expect(await screen.findByText(/No YubiKey yet/)).toBeTruthy();
  });

  it('renames, and deletes after confirmation', async () => {
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Rename YubiKey 12345678' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename YubiKey' });
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Desk key' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Desk key')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Desk key' }));
    expect(requests).not.toContain('DELETE /api/v1/user/mia/yubikey/4');
    const confirm = screen.getByRole('alertdialog', { name: 'Delete YubiKey' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/No YubiKey yet/)).toBeTruthy();
    expect(requests).toContain('DELETE /api/v1/user/mia/yubikey/4');
  });
});
