import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { AuthKeysCard } from './AuthKeysCard';

const LAPTOP = {
  id: 1,
  name: 'laptop',
  key_type: 'ssh',
  key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICAY7Yo78+FOvXsrc25MfKcYTANeIwqsN8qH/lfFn2KM',
  fingerprint: 'SHA256:9aDwdRKyRJ/AkhzMt5wUdCcYam3bXhlmxCgo0eL0Of8',
  created_at: '2026-11-20T10:00:00.000Z',
};
const CARD = {
  ...LAPTOP,
  id: 2,
  name: 'yubikey',
  key_type: 'gpg',
  key: '-----BEGIN PGP PUBLIC KEY BLOCK-----',
  fingerprint: '645EBFBB',
  serial: '12345678',
};

function renderCard() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthKeysCard username="mia" />
    </QueryClientProvider>,
  );
}

describe('AuthKeysCard', () => {
  it('lists keys with type, fingerprint and the card serial when there is one', async () => {
    setFetchHandler(async () => jsonResponse(200, [LAPTOP, CARD]));
    renderCard();
    const list = await screen.findByRole('list', { name: 'Authentication keys' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]?.textContent).toContain('SHA256:9aDwdRKyRJ/AkhzMt5wUdCcYam3bXhlmxCgo0eL0Of8');
    expect(items[0]?.textContent).toContain('SSH');
    expect(items[0]?.textContent).not.toContain('card serial');
    expect(items[1]?.textContent).toContain('GPG');
    expect(items[1]?.textContent).toContain('card serial 12345678');
  });

  it('says so when there is no key', async () => {
    setFetchHandler(async () => jsonResponse(200, []));
    renderCard();
    expect(await screen.findByText(/No SSH or GPG keys yet/)).toBeTruthy();
  });

  it('adds a key and shows the API refusal under the key field (already added), keeping the dialog open', async () => {
    const posted: unknown[] = [];
    let keys: unknown[] = [];
    let answer = problemResponse(409, 'auth_key.already_added', [{ path: 'key', code: 'auth_key.already_added', message: 'x' }]);
    setFetchHandler(async (request) => {
      if (request.method === 'GET') return jsonResponse(200, keys);
      posted.push(await request.json());
      if (answer.status === 409) {
        const refused = answer;
        answer = jsonResponse(201, LAPTOP);
        return refused;
      }
      keys = [LAPTOP];
      return answer;
    });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Add key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add authentication key' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' laptop ' } });
    fireEvent.change(within(dialog).getByLabelText('Public key'), { target: { value: `${LAPTOP.key} me@host\n` } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add key' }));
    expect(await within(dialog).findByText('This key has already been added')).toBeTruthy();
    expect(within(dialog).getByLabelText('Public key').getAttribute('aria-invalid')).toBe('true');
    expect(posted[0]).toEqual({ name: 'laptop', key_type: 'ssh', key: `${LAPTOP.key} me@host` });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add key' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(LAPTOP.fingerprint)).toBeTruthy();
  });

  it('says the key could not be added when the server fails', async () => {
    setFetchHandler(async (request) => (request.method === 'GET' ? jsonResponse(200, []) : problemResponse(500, 'internal')));
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Add key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add authentication key' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'k' } });
    fireEvent.change(within(dialog).getByLabelText('Key type'), { target: { value: 'gpg' } });
    fireEvent.change(within(dialog).getByLabelText('Public key'), { target: { value: '-----BEGIN PGP PUBLIC KEY BLOCK-----' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add key' }));
    expect(await within(dialog).findByText('Could not add the key. Please try again later.')).toBeTruthy();
  });

  it('renames a key and deletes one only after confirming', async () => {
    const calls: string[] = [];
    let keys = [LAPTOP];
    setFetchHandler(async (request) => {
      const { pathname } = new URL(request.url);
      calls.push(`${request.method} ${pathname}`);
      if (request.method === 'GET') return jsonResponse(200, keys);
      if (pathname.endsWith('/rename')) {
        keys = [{ ...LAPTOP, name: (await request.json()).name }];
        return jsonResponse(200, keys[0]);
      }
      keys = [];
      return new Response(null, { status: 204 });
    });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Rename laptop' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename authentication key' });
    fireEvent.change(within(rename).getByLabelText('Name'), { target: { value: 'work' } });
    fireEvent.click(within(rename).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(calls).toContain('POST /api/v1/user/mia/auth_key/1/rename'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete work' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete authentication key' });
    expect(calls).not.toContain('DELETE /api/v1/user/mia/auth_key/1');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toContain('DELETE /api/v1/user/mia/auth_key/1'));
    expect(await screen.findByText(/No SSH or GPG keys yet/)).toBeTruthy();
  });
});
