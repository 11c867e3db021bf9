import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { WebhookDialog } from './WebhookDialog';

let posted: unknown[] = [];

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <WebhookDialog onClose={vi.fn()} />
    </QueryClientProvider>,
  );
  return screen.getByRole('dialog', { name: 'Add webhook' });
}

beforeEach(() => {
  posted = [];
  setFetchHandler(async (request) => {
    posted.push(await request.json());
    return problemResponse(400, 'validation.failed', [
      { path: 'url', code: 'url.blocked', message: 'The address 127.0.0.1 is loopback and not in the egress allow-list.' },
    ]);
  });
});

describe('WebhookDialog', () => {
  it('shows the spec §5 messages on their fields and sends nothing while they stand', () => {
    const dialog = renderDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByLabelText('Secret token').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getAllByText('Field required')).toHaveLength(2);
    expect(within(dialog).getByText('Select at least one trigger')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'https://user:pw@hooks.example.com/' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Remove the user name and password from the URL')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('puts the server refusal of the address (SSRF guard) on the URL field', async () => {
    const dialog = renderDialog();
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'http://127.0.0.1:9000/hook' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'User created' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByLabelText('URL').getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(/add it to the egress allow-list in the settings/)).toBeTruthy();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ url: 'http://127.0.0.1:9000/hook', triggers: ['user.created'], enabled: true });
    expect((posted[0] as { token: string }).token).toMatch(/^whsec_/);
  });
});
