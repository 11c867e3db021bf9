import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { DisableMfaDialog } from './DisableMfaDialog';
import { mfaStatusQueryOptions } from './mfa.queries';

let methods: string[];
let bodies: unknown[];
let answer: (body: { password?: string; code?: string }) => Response;

/** Renders the dialog once the MFA status is loaded (as it is when the profile opens it). */
async function renderDialog() {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await client.fetchQuery(mfaStatusQueryOptions);
  render(
    <QueryClientProvider client={client}>
      <DisableMfaDialog onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose, dialog: screen.getByRole('alertdialog', { name: 'Turn off two-factor authentication' }) };
}

beforeEach(() => {
  bodies = [];
  answer = () => new Response(null, { status: 204 });
  setFetchHandler(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/api/v1/auth/mfa' && request.method === 'GET')
      return jsonResponse(200, { mfa_enabled: true, methods, default_method: methods[0], recovery_codes_left: 10 });
    if (path === '/api/v1/auth/mfa' && request.method === 'DELETE') {
      const body = (await request.json()) as { password?: string; code?: string };
      bodies.push(body);
      return answer(body);
    }
    return problemResponse(404, 'request.not_found');
  });
});

describe('DisableMfaDialog', () => {
  it('with the authenticator app on, turns MFA off with one of its codes (pasted) instead of the password', async () => {
    methods = ['totp', 'email'];
    answer = (body) => (body.code === '123456' ? new Response(null, { status: 204 }) : problemResponse(400, 'auth.invalid_code'));
    const { dialog, onClose } = await renderDialog();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'My authenticator app' }));
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
    const code = within(dialog).getByLabelText('Code from the authenticator app');
    fireEvent.paste(code, { clipboardData: { getData: () => '654 321' } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Code is invalid');
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.paste(code, { clipboardData: { getData: () => '123-456' } });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([{ code: '654321' }, { code: '123456' }]);
  });

  it('says so when the account is locked after too many wrong codes', async () => {
    methods = ['totp'];
    answer = () => problemResponse(429, 'auth.too_many_attempts');
    const { dialog } = await renderDialog();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'My authenticator app' }));
    fireEvent.change(within(dialog).getByLabelText('Code from the authenticator app'), { target: { value: '111111' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Too many bad login attempts. Please try again in a few minutes.');
  });

  it('the password stays the default proof and is sent as such', async () => {
    methods = ['totp'];
    const { dialog, onClose } = await renderDialog();
    expect(within(dialog).getByRole('radio', { name: 'My password' })).toHaveProperty('checked', true);
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'S3cret!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([{ password: 'S3cret!' }]);
  });

  it('without the authenticator app, offers only the password (the API checks authenticator codes only)', async () => {
    methods = ['email', 'webauthn'];
    const { dialog } = await renderDialog();
    screen.getByText('Enter your password to turn off every second factor and the recovery codes.');
    expect(within(dialog).queryByRole('radio')).toBeNull();
    expect(within(dialog).getByLabelText('Password')).toBeTruthy();
  });
});
