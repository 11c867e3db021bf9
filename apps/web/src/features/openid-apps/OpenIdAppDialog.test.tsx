import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { OpenIdAppDialog } from './OpenIdAppDialog';

let posted: unknown[] = [];
let answer: () => Response;

function renderDialog(onSecret = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <OpenIdAppDialog onClose={vi.fn()} onSecret={onSecret} />
    </QueryClientProvider>,
  );
  return screen.getByRole('dialog', { name: 'Add app' });
}

const CREATED = {
  client_id: 'c'.repeat(32),
  client_secret: 's'.repeat(64),
  name: 'Grafana',
  redirect_uris: ['https://grafana.example.com/cb'],
  scopes: ['openid'],
  public: false,
  enabled: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

beforeEach(() => {
  posted = [];
  answer = () => jsonResponse(201, CREATED);
  setFetchHandler(async (request) => {
    posted.push(await request.json());
    return answer();
  });
});

const save = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

describe('OpenIdAppDialog', () => {
  it('shows the spec §5 required-field messages inline and sends nothing while they stand', () => {
    const dialog = renderDialog();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'openid' }));
    save(dialog);
    expect(within(dialog).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getAllByText('Field required')).toHaveLength(2);
    expect(within(dialog).getByText('Select at least one scope')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('shows the spec §5 redirect URI messages inline, per row, and sends nothing while they stand', () => {
    const dialog = renderDialog();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Grafana' } });
    fireEvent.change(within(dialog).getByLabelText('Redirect URI 1'), { target: { value: 'http://grafana.example.com/cb' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add redirect URI' }));
    fireEvent.change(within(dialog).getByLabelText('Redirect URI 2'), { target: { value: 'https://grafana.example.com/cb#x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add redirect URI' }));
    fireEvent.change(within(dialog).getByLabelText('Redirect URI 3'), { target: { value: 'not a url' } });
    save(dialog);
    expect(within(dialog).getByLabelText('Redirect URI 1').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText('Use https (http only for localhost, 127.0.0.1 or [::1])')).toBeTruthy();
    expect(within(dialog).getByText('A redirect URI must not contain a fragment (#)')).toBeTruthy();
    expect(within(dialog).getByText('Enter a valid http(s) URL')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove redirect URI 3' }));
    expect(within(dialog).queryByLabelText('Redirect URI 3')).toBeNull();
    expect(posted).toEqual([]);
  });

  it('creates a confidential app and hands its secret on, to be shown once', async () => {
    const onSecret = vi.fn();
    const dialog = renderDialog(onSecret);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Grafana' } });
    fireEvent.change(within(dialog).getByLabelText('Redirect URI 1'), { target: { value: 'https://grafana.example.com/cb' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'email' }));
    save(dialog);
    await waitFor(() => expect(onSecret).toHaveBeenCalledTimes(1));
    expect(posted).toEqual([
      { name: 'Grafana', redirect_uris: ['https://grafana.example.com/cb'], scopes: ['openid', 'email'], public: false, enabled: true },
    ]);
    const { client_secret: secret, ...app } = CREATED;
    expect(onSecret).toHaveBeenCalledWith(app, secret);
  });

  it('puts the server field errors on their rows', async () => {
    answer = () =>
      problemResponse(400, 'validation.failed', [
        { path: 'redirect_uris.1', code: 'oauth.redirect_duplicate', message: 'This redirect URI is already listed' },
      ]);
    const dialog = renderDialog();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Grafana' } });
    fireEvent.change(within(dialog).getByLabelText('Redirect URI 1'), { target: { value: 'https://a.example.com/cb' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add redirect URI' }));
    fireEvent.change(within(dialog).getByLabelText('Redirect URI 2'), { target: { value: 'https://b.example.com/cb' } });
    save(dialog);
    await waitFor(() => expect(within(dialog).getByLabelText('Redirect URI 2').getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('This redirect URI is already listed')).toBeTruthy();
    expect(within(dialog).getByLabelText('Redirect URI 1').getAttribute('aria-invalid')).toBeNull();
  });
});
