import { DEFAULT_SETTINGS, SettingsEssentialsSchema } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ADMIN_USER } from '@/test/fixtures';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { useEnrollmentActions } from './use-enrollment-actions';

const essentials = (wireguard: boolean) => ({ ...SettingsEssentialsSchema.parse(DEFAULT_SETTINGS), wireguard_enabled: wireguard });

function labelsWith(wireguard: boolean) {
  setFetchHandler(() => jsonResponse(200, essentials(wireguard)));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const { result } = renderHook(() => useEnrollmentActions(ADMIN_USER), { wrapper });
  return () => result.current.items.map((item) => item.label);
}

describe('the user list onboarding actions', () => {
  it('offer desktop activation while the WireGuard module is on', async () => {
    const labels = labelsWith(true);
    await waitFor(() => expect(labels()).toEqual(['Start enrollment', 'Send password reset', 'Activate a desktop client']));
  });

  it('leave desktop activation out while the WireGuard module is off (its token would serve nothing)', async () => {
    const labels = labelsWith(false);
    await waitFor(() => expect(labels()).toEqual(['Start enrollment', 'Send password reset']));
  });
});
