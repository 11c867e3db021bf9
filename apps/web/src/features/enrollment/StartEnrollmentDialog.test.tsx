import type { User } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useToastStore } from '@/components/toast-store';
import { ADMIN_USER } from '@/test/fixtures';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { StartEnrollmentDialog } from './StartEnrollmentDialog';

const NEW_USER: User = {
  ...ADMIN_USER,
  id: 5,
  username: 'nina',
  email: 'nina@example.com',
  is_admin: false,
  has_password: false,
  enrolled: false,
};
const URL_ = 'https://vpn.example.com/enrollment?token=tok123';

let bodies: unknown[] = [];
const wrap = (node: React.ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{node}</QueryClientProvider>
);

beforeEach(() => {
  bodies = [];
  useToastStore.setState({ toasts: [] });
});

describe('Start enrollment', () => {
  it('manual: shows the link and token once, with copy buttons and a QR code of the link', async () => {
    setFetchHandler(async (request) => {
      bodies.push(await request.json());
      return jsonResponse(200, { token: 'tok123', url: URL_, expires_at: '2026-11-26T10:00:00Z' });
    });
    render(wrap(<StartEnrollmentDialog user={NEW_USER} onClose={() => {}} />));
    fireEvent.click(screen.getByRole('radio', { name: /Deliver it myself/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Start enrollment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enrollment link for nina' });
    expect(bodies).toEqual([{ send_email: false }]);
    expect(within(dialog).getByText(URL_)).toBeTruthy();
    expect(within(dialog).getByText('tok123')).toBeTruthy();
    expect(within(dialog).getByRole('img', { name: 'QR code of the enrollment link' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy token' })).toBeTruthy();
  });

  it('email: mails the link in the console language and says where it went', async () => {
    setFetchHandler(async (request) => {
      bodies.push(await request.json());
      return jsonResponse(200, { email: 'nina@example.com', expires_at: '2026-11-26T10:00:00Z' });
    });
    const onClose = vi.fn();
    render(wrap(<StartEnrollmentDialog user={NEW_USER} onClose={onClose} />));
    fireEvent.click(screen.getByRole('button', { name: 'Start enrollment' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([{ send_email: true, locale: 'en' }]);
    expect(useToastStore.getState().toasts.map((toast) => toast.message)).toContain('Enrollment link sent to nina@example.com.');
  });

  it('a user with a password is enrolled again only after the admin confirms', async () => {
    setFetchHandler(async (request) => {
      const body = (await request.json()) as { re_enroll?: true };
      bodies.push(body);
      return body.re_enroll
        ? jsonResponse(200, { token: 't', url: URL_, expires_at: '2026-11-26T10:00:00Z' })
        : problemResponse(409, 'enrollment.user_has_password');
    });
    render(wrap(<StartEnrollmentDialog user={{ ...NEW_USER, has_password: true }} onClose={() => {}} />));
    fireEvent.click(screen.getByRole('radio', { name: /Deliver it myself/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Start enrollment' }));
    expect(await screen.findByText(/Tick the confirmation/)).toBeTruthy();
    expect(bodies).toEqual([]);
    fireEvent.click(screen.getByRole('checkbox', { name: /Enroll again/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Start enrollment' }));
    expect(await screen.findByRole('dialog', { name: 'Enrollment link for nina' })).toBeTruthy();
    expect(bodies).toEqual([{ send_email: false, re_enroll: true }]);
  });

  it('a 409 from the server (password set meanwhile) asks for the confirmation instead of failing silently', async () => {
    setFetchHandler(() => problemResponse(409, 'enrollment.user_has_password'));
    render(wrap(<StartEnrollmentDialog user={NEW_USER} onClose={() => {}} />));
    fireEvent.click(screen.getByRole('button', { name: 'Start enrollment' }));
    expect(await screen.findByRole('checkbox', { name: /Enroll again/ })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('already has a password');
  });
});
