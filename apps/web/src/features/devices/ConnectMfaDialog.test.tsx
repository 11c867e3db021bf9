import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { ConnectMfaDialog } from './ConnectMfaDialog';

const PSK = 'c2VjcmV0LXByZXNoYXJlZC1rZXktb2YtMzItYnl0ZXM=';
let starts = 0;
let finishes: unknown[] = [];

function Harness() {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  return (
    <QueryClientProvider client={client}>
      <ConnectMfaDialog
        device={{ name: 'laptop', wireguard_pubkey: `${'K'.repeat(43)}=` }}
        location={{ id: 7, name: 'Secure' }}
        onClose={vi.fn()}
      />
    </QueryClientProvider>
  );
}

beforeEach(() => {
  starts = 0;
  finishes = [];
  setFetchHandler(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/v1/vpn_session/start') {
      starts++;
      return jsonResponse(201, { challenge: `ch${starts}`, expires_at: new Date().toISOString(), methods: ['totp'] });
    }
    if (url.pathname === '/api/v1/vpn_session/finish') {
      const body = (await request.json()) as { challenge: string; code: string };
      finishes.push(body);
      if (body.code !== '123456') {
        return jsonResponse(400, {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          code: 'auth.invalid_code',
          detail: 'Code is invalid',
        });
      }
      const session = {
        id: 1,
        device_id: 3,
        device_name: 'laptop',
        location_id: 7,
        location_name: 'Secure',
        started_at: new Date().toISOString(),
        last_handshake: null,
        ended_at: null,
        end_reason: null,
      };
      return jsonResponse(201, { session, preshared_key: PSK });
    }
    return jsonResponse(200, []);
  });
});

describe('ConnectMfaDialog', () => {
  it('asks for the code, starts again after a wrong one, then shows the PresharedKey line once', async () => {
    render(<Harness />);
    const dialog = screen.getByRole('dialog', { name: 'Connect laptop to Secure' });
    const code = within(dialog).getByLabelText('Authentication code');
    await waitFor(() => expect(code.hasAttribute('disabled')).toBe(false));

    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify and connect' }));
    await within(dialog).findByText('Code is invalid');
    await waitFor(() => expect(starts).toBe(2));
    expect(finishes).toEqual([{ challenge: 'ch1', code: '000000' }]);

    await waitFor(() => expect(code.hasAttribute('disabled')).toBe(false));
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify and connect' }));
    const line = await screen.findByLabelText('Preshared key line');
    expect(line.textContent).toBe(`PresharedKey = ${PSK}`);
    expect(finishes.at(-1)).toEqual({ challenge: 'ch2', code: '123456' });
    expect(screen.getByText('This preshared key is shown only once. Copy it now.')).toBeTruthy();
  });
});
