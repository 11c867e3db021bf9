import type { EnterpriseInfo } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { UpgradePrompt, useEnterpriseLocked } from './UpgradePrompt';

const FREE = { users: 5, devices: 10, locations: 1, gateways: 1 };
const OVER: EnterpriseInfo = {
  licence: null,
  status: 'no_licence',
  grace_period: false,
  grace_ends_at: null,
  usage: { users: 7, devices: 4, locations: 2, gateways: 1 },
  limits: FREE,
  exceeded: ['users', 'locations'],
  free_limits: FREE,
  enterprise_enabled: false,
};

function LockedButton() {
  return (
    <button type="button" disabled={useEnterpriseLocked()}>
      Add rule
    </button>
  );
}

function renderPrompt(info: EnterpriseInfo) {
  setFetchHandler(() => jsonResponse(200, info));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <UpgradePrompt />
      <LockedButton />
    </QueryClientProvider>,
  );
}

describe('upgrade prompt on enterprise screens', () => {
  it('says what is over which limit and what to do, and locks the change buttons', async () => {
    renderPrompt(OVER);
    expect(await screen.findByText('A licence is required to change this')).toBeTruthy();
    expect(screen.getByText(/this instance is over them: Users 7 \/ 5, Locations 2 \/ 1\./)).toBeTruthy();
    expect(screen.getByText(/Enter a licence key in Settings › Global › Licence, or reduce usage\./)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add rule' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows nothing and locks nothing while enterprise features are on', async () => {
    renderPrompt({ ...OVER, usage: { users: 2, devices: 0, locations: 1, gateways: 0 }, exceeded: [], enterprise_enabled: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await screen.findByRole('button', { name: 'Add rule' });
    expect(screen.queryByText('A licence is required to change this')).toBeNull();
    expect((screen.getByRole('button', { name: 'Add rule' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
