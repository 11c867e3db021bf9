import type { ActivityLogStream } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { StreamDialog } from './StreamDialog';

const stream: ActivityLogStream = {
  id: 7,
  kind: 'logstash_http',
  name: 'siem',
  url: 'https://logstash.example.com:8080/',
  username: 'palisade',
  has_password: true,
  certificate: '',
  state: { lag: 0 },
};

let sent: { method: string; body: Record<string, unknown> }[] = [];

function renderEdit() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <StreamDialog stream={stream} onClose={vi.fn()} />
    </QueryClientProvider>,
  );
  return screen.getByRole('dialog', { name: 'Edit destination' });
}

beforeEach(() => {
  sent = [];
  setFetchHandler(async (request) => {
    sent.push({ method: request.method, body: (await request.json()) as Record<string, unknown> });
    return jsonResponse(200, stream);
  });
});

describe('StreamDialog (edit): the password is write-only', () => {
  it('leaves the password out when the field stays empty, so the stored one is kept', async () => {
    const dialog = renderEdit();
    expect((within(dialog).getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
    fireEvent.change(within(dialog).getByLabelText('Name'), {
      target: { value: 'siem-2' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.method).toBe('PUT');
    expect(sent[0]?.body).toMatchObject({ kind: 'logstash_http', name: 'siem-2', username: 'palisade' });
    expect(sent[0]?.body).not.toHaveProperty('password');
  });

  it('sends a new password, or an empty one when "Remove the stored password" is ticked', async () => {
    const dialog = renderEdit();
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'new-secret' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toHaveProperty('password', 'new-secret');

    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Remove the stored password' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]?.body).toHaveProperty('password', '');
  });
});
