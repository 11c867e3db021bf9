import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '@/features/app/app-store';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { MfaCard } from './MfaCard';

const OFF = { mfa_enabled: false, methods: [], recovery_codes_left: 0 };
const ON = { mfa_enabled: true, methods: ['totp'], default_method: 'totp', recovery_codes_left: 10 };
const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);

let status: unknown;
let calls: { method: string; path: string; body: unknown }[];

function renderCard() {
  calls = [];
  setFetchHandler(async (request) => {
    const path = new URL(request.url).pathname;
    const text = request.method === 'GET' ? '' : await request.text();
    calls.push({ method: request.method, path, body: text ? JSON.parse(text) : undefined });
    if (path === '/api/v1/auth/mfa' && request.method === 'GET') return jsonResponse(200, status);
    if (path === '/api/v1/user/mia/security_key') return jsonResponse(200, []);
    if (path === '/api/v1/auth/email/init') return new Response(null, { status: 204 });
    if (path === '/api/v1/auth/email' && request.method === 'POST') {
      status = { ...ON, methods: ['email'], default_method: 'email' };
      return jsonResponse(200, { recovery_codes: CODES });
    }
    if (path === '/api/v1/auth/totp/init')
      return jsonResponse(201, { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Palisade:mia?secret=JBSWY3DPEHPK3PXP' });
    if (path === '/api/v1/auth/totp' && request.method === 'POST') {
      const { code } = JSON.parse(text) as { code: string };
      if (code !== '123456') return problemResponse(400, 'auth.invalid_code');
      status = ON;
      return jsonResponse(201, { recovery_codes: CODES });
    }
    if (path === '/api/v1/auth/mfa' && request.method === 'DELETE') {
      const body = JSON.parse(text) as { password?: string };
      if (body.password !== 'right') return problemResponse(400, 'auth.invalid_password');
      status = OFF;
      return new Response(null, { status: 204 });
    }
    return problemResponse(404, 'request.not_found');
  });
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MfaCard username="mia" />
    </QueryClientProvider>,
  );
}

describe('MfaCard', () => {
  beforeEach(() => {
    status = OFF;
  });

  it('enables the authenticator app with a QR code, the secret and a first code, then shows the recovery codes once', async () => {
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Enable: Authenticator app code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    expect(await within(dialog).findByRole('img', { name: 'QR code of the authenticator secret' })).toBeTruthy();
    expect(within(dialog).getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    const input = within(dialog).getByLabelText('Code from the app');
    fireEvent.paste(input, { clipboardData: { getData: () => '654 321' } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Code is invalid');
    fireEvent.paste(input, { clipboardData: { getData: () => '123 456' } });
    const codes = await screen.findByRole('dialog', { name: 'Recovery codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(within(codes).getByRole('button', { name: 'Download as .txt' })).toBeTruthy();
    fireEvent.click(within(codes).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('10 recovery codes left')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/v1/auth/totp').map((c) => c.body)).toEqual([{ code: '654321' }, { code: '123456' }]);
    expect(calls.filter((c) => c.path === '/api/v1/auth/totp/init')).toHaveLength(1);
  });

  it('turns MFA off only with the password', async () => {
    status = ON;
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off two-factor authentication' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Turn off two-factor authentication' });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The current password is incorrect.');
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'right' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(/Two-factor authentication is off/)).toBeTruthy();
  });

  it('email codes cannot be turned on while SMTP is not configured, and say why', async () => {
    useAppStore.setState({ appInfo: { version: '1', network_present: false, smtp_enabled: false } });
    renderCard();
    const enable = await screen.findByRole('button', { name: 'Enable: Code sent by email' });
    expect((enable as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Needs outgoing mail (SMTP), which is not configured.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Enable: Authenticator app code' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('email codes are turned on with the emailed code once SMTP is configured', async () => {
    useAppStore.setState({ appInfo: { version: '1', network_present: false, smtp_enabled: true } });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Enable: Code sent by email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up email codes' });
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/v1/auth/email/init'));
    const input = within(dialog).getByLabelText('Code from the email') as HTMLInputElement;
    await waitFor(() => expect(input.disabled).toBe(false));
    fireEvent.paste(input, { clipboardData: { getData: () => '135790' } });
    expect(await screen.findByRole('dialog', { name: 'Recovery codes' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/v1/auth/email' && c.method === 'POST')?.body).toEqual({ code: '135790' });
  });
});
