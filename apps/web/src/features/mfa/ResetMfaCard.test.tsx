import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setFetchHandler } from '@/test/fetch-mock';
import { ADMIN_USER } from '@/test/fixtures';
import { ResetMfaCard } from './ResetMfaCard';

describe('ResetMfaCard', () => {
  it('an admin resets another user’s MFA after confirming', async () => {
    const calls: string[] = [];
    setFetchHandler(async (request) => {
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      return new Response(null, { status: 204 });
    });
    const user = { ...ADMIN_USER, username: 'mia', is_admin: false, mfa_enabled: true, mfa_method: 'totp' as const };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ResetMfaCard user={user} />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reset MFA' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset MFA' });
    expect(calls).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset MFA' }));
    await waitFor(() => expect(calls).toEqual(['DELETE /api/v1/user/mia/mfa']));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('offers nothing to reset when the user has no MFA', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ResetMfaCard user={{ ...ADMIN_USER, username: 'mia', mfa_enabled: false }} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('This user has not turned on two-factor authentication.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset MFA' })).toBeNull();
  });
});
