import type { OAuthClient } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { OpenIdAppSecretDialog, type SecretDialogMode } from './OpenIdAppSecretDialog';

const APP: OAuthClient = {
  client_id: 'grafana-client-id',
  name: 'Grafana',
  redirect_uris: ['https://grafana.example.com/cb'],
  scopes: ['openid'],
  public: false,
  enabled: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

let calls: string[] = [];

beforeEach(() => {
  calls = [];
  setFetchHandler(async (request) => {
    calls.push(`${request.method} ${new URL(request.url).pathname}`);
    return jsonResponse(200, { client_secret: request.method === 'GET' ? 'the-current-secret' : 'a-brand-new-secret' });
  });
});

function renderDialog(mode: SecretDialogMode, secret?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <OpenIdAppSecretDialog app={APP} mode={mode} onClose={vi.fn()} {...(secret ? { secret } : {})} />
    </QueryClientProvider>,
  );
}

describe('OpenIdAppSecretDialog', () => {
  it('asks before showing the secret, then shows it with Copy', async () => {
    renderDialog('show');
    const confirm = screen.getByRole('alertdialog', { name: 'Show client secret' });
    expect(calls).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Show secret' }));
    const shown = await screen.findByRole('dialog', { name: 'Client secret of Grafana' });
    expect(calls).toEqual(['GET /api/v1/oauth/grafana-client-id/secret']);
    expect((within(shown).getByLabelText('Client secret') as HTMLInputElement).value).toBe('the-current-secret');
    expect((within(shown).getByLabelText('Client ID') as HTMLInputElement).value).toBe('grafana-client-id');
    expect(within(shown).getByRole('button', { name: 'Copy secret' })).toBeTruthy();
  });

  it('warns that apps using the old secret stop working before it regenerates', async () => {
    renderDialog('regenerate');
    const confirm = screen.getByRole('alertdialog', { name: 'Regenerate client secret' });
    expect(within(confirm).getByText(/stops working with its current secret/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(screen.getByLabelText('Client secret')).toBeTruthy());
    expect(calls).toEqual(['POST /api/v1/oauth/grafana-client-id/secret']);
    expect((screen.getByLabelText('Client secret') as HTMLInputElement).value).toBe('a-brand-new-secret');
  });

  it('shows a new app secret at once, without asking the server', () => {
    renderDialog('new', 'secret-from-creation');
    expect((screen.getByLabelText('Client secret') as HTMLInputElement).value).toBe('secret-from-creation');
    expect(calls).toEqual([]);
  });
});
