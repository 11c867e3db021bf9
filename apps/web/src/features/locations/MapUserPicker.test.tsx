import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { MapUserPicker, type PickedUser } from './MapUserPicker';

const USERS = Array.from({ length: 10_000 }, (_, i) => {
  const username = `user${String(i).padStart(5, '0')}`;
  return {
    id: i + 1,
    username,
    first_name: 'First',
    last_name: username,
    email: `${username}@example.com`,
    is_active: true,
    is_admin: false,
    groups: [],
    mfa_enabled: false,
    enrolled: true,
  };
});

let requests: URL[] = [];

function Harness({ onPick }: { onPick?: (user: PickedUser | undefined) => void }) {
  const [value, setValue] = useState<PickedUser | undefined>(undefined);
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  return (
    <QueryClientProvider client={client}>
      <MapUserPicker
        value={value}
        onChange={(user) => {
          setValue(user);
          onPick?.(user);
        }}
        a11y={{ 'aria-label': 'User for peer abc' }}
      />
      <span data-testid="picked">{value?.id ?? ''}</span>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  requests = [];
  setFetchHandler((request) => {
    const url = new URL(request.url);
    requests.push(url);
    const search = url.searchParams.get('search')?.toLowerCase() ?? '';
    const perPage = Number(url.searchParams.get('per_page'));
    const matches = USERS.filter((u) => u.username.includes(search));
    return jsonResponse(200, { items: matches.slice(0, perPage), page: 1, per_page: perPage, total: matches.length });
  });
});

const input = () => screen.getByRole('combobox', { name: 'User for peer abc' });

describe('MapUserPicker', () => {
  it('opens on one small server page of a large list', async () => {
    render(<Harness />);
    fireEvent.click(input());
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(20));
    expect(screen.getByRole('status').textContent).toBe('Showing 20 of 10,000 users. Type to narrow the search.');
    expect(requests.every((r) => Number(r.searchParams.get('per_page')) <= 20)).toBe(true);
    expect(input().getAttribute('aria-expanded')).toBe('true');
  });

  it('searches the server and picks with the keyboard', async () => {
    render(<Harness />);
    fireEvent.change(input(), { target: { value: 'user0999' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(10));
    expect(requests.at(-1)?.searchParams.get('search')).toBe('user0999');
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    const active = screen.getByRole('option', { name: 'First user09991 (user09991)' });
    expect(active.getAttribute('aria-selected')).toBe('true');
    expect(input().getAttribute('aria-activedescendant')).toBe(active.id);
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(screen.getByTestId('picked').textContent).toBe('9992');
    expect((input() as HTMLInputElement).value).toBe('First user09991 (user09991)');
    expect(input().getAttribute('aria-expanded')).toBe('false');
  });

  it('ignores Enter while the shown matches are not yet those of the text', async () => {
    render(<Harness />);
    fireEvent.click(input());
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(20));
    fireEvent.change(input(), { target: { value: 'user09999' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(screen.getByTestId('picked').textContent).toBe('');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(screen.getByTestId('picked').textContent).toBe('10000');
  });

  it('clears the choice when the text is edited, and Escape closes then restores', async () => {
    render(<Harness />);
    fireEvent.change(input(), { target: { value: 'user00042' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    fireEvent.click(screen.getByRole('option'));
    expect(screen.getByTestId('picked').textContent).toBe('43');
    fireEvent.change(input(), { target: { value: 'First user0004' } });
    expect(screen.getByTestId('picked').textContent).toBe('');
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(input().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
  });
});
