import type { User } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useToastStore } from '@/components/toast-store';
import { ADMIN_USER } from '@/test/fixtures';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ResetPasswordDialog } from './ResetPasswordDialog';

const NEW_USER: User = { ...ADMIN_USER, id: 5, username: 'nina', email: 'nina@example.com', is_admin: false };

let bodies: unknown[] = [];
const wrap = (node: React.ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{node}</QueryClientProvider>
);

beforeEach(() => {
  bodies = [];
  useToastStore.setState({ toasts: [] });
});

describe('Send password reset', () => {
  it('asks first, then mails the link and names the address', async () => {
    setFetchHandler(async (request) => {
      bodies.push({ path: new URL(request.url).pathname, body: await request.json() });
      return jsonResponse(200, { email: 'nina@example.com', expires_at: '2026-11-25T01:00:00Z' });
    });
    const onClose = vi.fn();
    render(wrap(<ResetPasswordDialog user={NEW_USER} onClose={onClose} />));
    expect(bodies).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([{ path: '/api/v1/user/nina/reset_password', body: { locale: 'en' } }]);
    expect(useToastStore.getState().toasts.map((toast) => toast.message)).toContain('Password reset link sent to nina@example.com.');
  });

  it('says so when mail is not configured', async () => {
    setFetchHandler(() => problemResponse(400, 'mail.not_configured'));
    render(wrap(<ResetPasswordDialog user={NEW_USER} onClose={() => {}} />));
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() => expect(useToastStore.getState().toasts.some((toast) => toast.kind === 'error')).toBe(true));
  });
});
