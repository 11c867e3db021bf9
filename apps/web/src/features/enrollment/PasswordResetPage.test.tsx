import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { PasswordResetPage } from './PasswordResetPage';
import { renderPublicPage } from './test-router';

let calls: { path: string; body: unknown }[] = [];

function serve(overrides: Record<string, () => Response> = {}) {
  setFetchHandler(async (request) => {
    const path = new URL(request.url).pathname;
    calls.push({ path, body: request.method === 'GET' ? undefined : await request.json().catch(() => undefined) });
    const override = overrides[path];
    if (override) return override();
    if (path === '/api/v1/password_reset/request') return new Response(null, { status: 202 });
    if (path === '/api/v1/password_reset/start')
      return jsonResponse(200, { username: 'nina', first_name: 'Nina', expires_at: '2026-11-25T01:00:00Z' });
    if (path === '/api/v1/password_reset/finish') return new Response(null, { status: 204 });
    return jsonResponse(200, { instance_name: 'Palisade' });
  });
}

beforeEach(() => {
  calls = [];
});

describe('Password reset page', () => {
  it('asks for a link and answers the same way whether or not the address has an account', async () => {
    serve();
    renderPublicPage({ reset: PasswordResetPage }, '/password-reset');
    fireEvent.change(await screen.findByLabelText('Email address'), { target: { value: 'nobody@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(/If an account uses nobody@example.com/)).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/v1/password_reset/request')?.body).toEqual({ email: 'nobody@example.com', locale: 'en' });
  });

  it('refuses an address that is not one before asking the server', async () => {
    serve();
    renderPublicPage({ reset: PasswordResetPage }, '/password-reset');
    fireEvent.change(await screen.findByLabelText('Email address'), { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(screen.getByLabelText('Email address').getAttribute('aria-invalid')).toBe('true'));
    expect(calls.some((c) => c.path === '/api/v1/password_reset/request')).toBe(false);
  });

  it('sets the new password with the token of the link', async () => {
    serve();
    renderPublicPage({ reset: PasswordResetPage }, '/password-reset?token=tok-1');
    expect(await screen.findByText('For the account nina.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Better1!pass' } });
    fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'Better1!pass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/v1/password_reset/finish')?.body).toEqual({ token: 'tok-1', password: 'Better1!pass' });
  });

  it('says so when the directory (LDAP) of the account refuses the new password, staying on the form', async () => {
    serve({ '/api/v1/password_reset/finish': () => problemResponse(400, 'ldap.password_refused') });
    renderPublicPage({ reset: PasswordResetPage }, '/password-reset?token=tok-1');
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'Better1!pass' } });
    fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'Better1!pass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(/The directory \(LDAP\) did not accept this password/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Password changed' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Change password' })).toBeTruthy();
  });

  it('refuses passwords that do not match, sending nothing', async () => {
    serve();
    renderPublicPage({ reset: PasswordResetPage }, '/password-reset?token=tok-1');
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'Better1!pass' } });
    fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'Better1!pasS' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Fields do not match')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/v1/password_reset/finish')).toBe(false);
  });

  it('shows one clear page for an expired or used reset link, with a way to ask for a new one', async () => {
    serve({ '/api/v1/password_reset/start': () => problemResponse(400, 'password_reset.token_invalid') });
    renderPublicPage({ reset: PasswordResetPage }, '/password-reset?token=old');
    expect(await screen.findByRole('heading', { name: 'This link cannot be used' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toBeTruthy();
  });
});
