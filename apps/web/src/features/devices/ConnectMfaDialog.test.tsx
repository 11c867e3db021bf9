import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ConnectMfaDialog } from './ConnectMfaDialog';

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  startAuthentication: browser.startAuthentication,
}));

const PSK = 'c2VjcmV0LXByZXNoYXJlZC1rZXktb2YtMzItYnl0ZXM=';
const SESSION = {
  id: 1,
  device_id: 3,
  device_name: 'laptop',
  location_id: 7,
  location_name: 'Secure',
  started_at: '2026-11-24T10:00:00.000Z',
  last_handshake: null,
  ended_at: null,
  end_reason: null,
};
const ASSERTION = { id: 'key-1', rawId: 'key-1', type: 'public-key', response: { signature: 'sig' }, clientExtensionResults: {} };

type Method = 'totp' | 'email' | 'webauthn';
let methods: Method[];
let starts: { method?: Method }[];
let finishes: { challenge: string; code?: string; credential?: unknown }[];
/** What finish answers for a body (default: the right code or any credential starts the session). */
let finishAnswer: (body: { challenge: string; code?: string; credential?: unknown }) => Response | undefined;
let startAnswer: (body: { method?: Method }) => Response | undefined;

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

const dialog = () => screen.getByRole('dialog', { name: 'Connect laptop to Secure' });
const enabled = async (label: string) => {
  const field = await within(dialog()).findByLabelText(label);
  await waitFor(() => expect(field.hasAttribute('disabled')).toBe(false));
  return field;
};

beforeEach(() => {
  methods = ['totp'];
  starts = [];
  finishes = [];
  finishAnswer = () => undefined;
  startAnswer = () => undefined;
  browser.startAuthentication.mockReset();
  setFetchHandler(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/v1/vpn_session/start') {
      const body = (await request.json()) as { method?: Method };
      starts.push({ ...(body.method ? { method: body.method } : {}) });
      const answered = startAnswer(body);
      if (answered) return answered;
      const method = body.method ?? methods[0] ?? 'totp';
      return jsonResponse(200, {
        challenge: `ch${starts.length}`,
        expires_at: '2026-11-24T10:05:00.000Z',
        method,
        methods,
        ...(method === 'webauthn' ? { webauthn: { challenge: `wa${starts.length}`, rpId: 'localhost' } } : {}),
      });
    }
    if (url.pathname === '/api/v1/vpn_session/finish') {
      const body = (await request.json()) as { challenge: string; code?: string; credential?: unknown };
      finishes.push(body);
      const answered = finishAnswer(body);
      if (answered) return answered;
      if (body.credential || body.code === '123456') return jsonResponse(200, { session: SESSION, preshared_key: PSK });
      return problemResponse(400, 'auth.invalid_code');
    }
    if (url.pathname === '/api/v1/auth/mfa')
      return jsonResponse(200, { mfa_enabled: true, methods, default_method: methods[0], recovery_codes_left: 10 });
    return jsonResponse(200, []);
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ConnectMfaDialog', () => {
  it('asks for the authenticator code; a wrong one keeps the challenge; the right one shows the PresharedKey line once', async () => {
    render(<Harness />);
    const code = await enabled('Authenticator app code');
    expect(within(dialog()).getByText(/Enter the 6-digit code from your authenticator app/)).toBeTruthy();

    fireEvent.paste(code, { clipboardData: { getData: () => '000 000' } });
    expect((await within(dialog()).findByRole('alert')).textContent).toBe('Code is invalid');
    expect(finishes).toEqual([{ challenge: 'ch1', code: '000000' }]);

    fireEvent.change(code, { target: { value: '123456' } });
    const line = await screen.findByLabelText('Preshared key line');
    expect(line.textContent).toBe(`PresharedKey = ${PSK}`);
    expect(finishes.at(-1)).toEqual({ challenge: 'ch1', code: '123456' });
    expect(starts).toEqual([{}]);
    expect(screen.getByText('This preshared key is shown only once. Copy it now.')).toBeTruthy();
  });

  it('starts again with the same method when the challenge expired', async () => {
    finishAnswer = (body) => (body.challenge === 'ch1' ? problemResponse(400, 'vpn_session.challenge_invalid') : undefined);
    render(<Harness />);
    fireEvent.change(await enabled('Authenticator app code'), { target: { value: '123456' } });
    expect((await within(dialog()).findByRole('alert')).textContent).toBe('The check expired or was already used. Start again.');
    await waitFor(() => expect(starts).toEqual([{}, { method: 'totp' }]));
    fireEvent.change(await enabled('Authenticator app code'), { target: { value: '123456' } });
    expect(await screen.findByLabelText('Preshared key line')).toBeTruthy();
    expect(finishes.map((f) => f.challenge)).toEqual(['ch1', 'ch2']);
  });

  it('with email codes as the default: says the code was mailed, resends only after 30 s, and finishes with the mailed code', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    methods = ['email', 'totp'];
    render(<Harness />);
    const code = await enabled('Code sent by email');
    expect(within(dialog()).getByText(/We sent a 6-digit code to your email address/)).toBeTruthy();
    const resend = within(dialog()).getByRole('button', { name: /Send a new code in \d+ seconds/ });
    expect(resend.hasAttribute('disabled')).toBe(true);

    act(() => vi.advanceTimersByTime(31_000));
    const again = await within(dialog()).findByRole('button', { name: 'Send a new code' });
    fireEvent.click(again);
    await waitFor(() => expect(starts).toEqual([{}, { method: 'email' }]));
    expect(await within(dialog()).findByRole('button', { name: /Send a new code in \d+ seconds/ })).toBeTruthy();

    fireEvent.change(code, { target: { value: '123456' } });
    expect(await screen.findByLabelText('Preshared key line')).toBeTruthy();
    expect(finishes).toEqual([{ challenge: 'ch2', code: '123456' }]);
  });

  it('switches to another method by starting again with it, and says why when the switch is refused', async () => {
    methods = ['totp', 'email', 'webauthn'];
    startAnswer = (body) => (body.method === 'email' ? problemResponse(400, 'mail.not_configured') : undefined);
    render(<Harness />);
    await enabled('Authenticator app code');
    const others = within(dialog()).getByRole('navigation', { name: 'Use another method' });
    fireEvent.click(within(others).getByRole('button', { name: 'Code sent by email' }));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      'Outgoing mail is not configured. Set the SMTP server, port and sender address in the settings.',
    );
    expect(starts).toEqual([{}, { method: 'email' }]);
    // The authenticator challenge still stands.
    expect(within(dialog()).getByLabelText('Authenticator app code')).toBeTruthy();

    fireEvent.click(within(others).getByRole('button', { name: 'Security key' }));
    expect(await within(dialog()).findByRole('button', { name: 'Use security key' })).toBeTruthy();
    expect(starts.at(-1)).toEqual({ method: 'webauthn' });
    expect(within(dialog()).queryByLabelText('Authenticator app code')).toBeNull();
  });

  it('when the default method cannot start (a code was mailed moments ago), offers the user’s methods from the MFA status', async () => {
    methods = ['email', 'totp'];
    startAnswer = (body) => (body.method === undefined ? problemResponse(429, 'mfa.email_too_soon') : undefined);
    render(<Harness />);
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      'A code was sent less than 30 seconds ago. Wait a moment before asking for another one.',
    );
    const others = await within(dialog()).findByRole('navigation', { name: 'Use another method' });
    fireEvent.click(within(others).getByRole('button', { name: 'Authenticator app code' }));
    fireEvent.change(await enabled('Authenticator app code'), { target: { value: '123456' } });
    expect(await screen.findByLabelText('Preshared key line')).toBeTruthy();
    expect(starts).toEqual([{}, { method: 'totp' }]);
    expect(finishes).toEqual([{ challenge: 'ch2', code: '123456' }]);
  });

  it('with a security key: the browser signs the challenge options; a failed read says so, a retry finishes', async () => {
    methods = ['webauthn', 'totp'];
    browser.startAuthentication.mockRejectedValueOnce(new Error('The operation either timed out or was not allowed.'));
    browser.startAuthentication.mockResolvedValueOnce(ASSERTION);
    render(<Harness />);
    const useKey = await within(dialog()).findByRole('button', { name: 'Use security key' });
    expect(within(dialog()).getByText(/Use your security key or passkey/)).toBeTruthy();
    fireEvent.click(useKey);
    expect((await within(dialog()).findByRole('alert')).textContent).toBe('Failed to read key. Please try again.');
    expect(finishes).toEqual([]);

    fireEvent.click(useKey);
    expect(await screen.findByLabelText('Preshared key line')).toBeTruthy();
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'wa1', rpId: 'localhost' } });
    expect(finishes).toEqual([{ challenge: 'ch1', credential: ASSERTION }]);
  });
});
