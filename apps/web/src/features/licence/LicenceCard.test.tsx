import type { EnterpriseInfo } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatDate } from '@/i18n/format';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { LicenceCard } from './LicenceCard';

const FREE = { users: 5, devices: 10, locations: 1, gateways: 1 };
const NONE: EnterpriseInfo = {
  licence: null,
  status: 'no_licence',
  grace_period: false,
  grace_ends_at: null,
  usage: { users: 3, devices: 4, locations: 1, gateways: 0 },
  limits: FREE,
  exceeded: [],
  free_limits: FREE,
  enterprise_enabled: true,
};
const LICENCE = {
  id: 'lic-42',
  customer: 'Acme',
  type: 'subscription' as const,
  valid_until: '2027-01-01T00:00:00.000Z',
  limits: { users: 100, devices: null, locations: 10, gateways: null },
};
const ACTIVE: EnterpriseInfo = { ...NONE, licence: LICENCE, status: 'active', limits: LICENCE.limits };

let info: EnterpriseInfo;
let calls: { method: string; body: unknown }[];
let putAnswer: () => Response;

function renderCard() {
  setFetchHandler(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/v1/enterprise_info') return jsonResponse(200, info);
    if (pathname === '/api/v1/licence') {
      calls.push({ method: request.method, body: request.method === 'PUT' ? await request.json() : undefined });
      if (request.method === 'PUT') return putAnswer();
      return jsonResponse(200, NONE);
    }
    return new Response(null, { status: 404 });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <LicenceCard />
    </QueryClientProvider>,
  );
}

const usageRow = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) });

beforeEach(() => {
  info = NONE;
  calls = [];
  putAnswer = () => jsonResponse(200, ACTIVE);
});

describe('Settings › Global › Licence', () => {
  it('without a licence shows the free limits against usage and that enterprise features are on', async () => {
    renderCard();
    expect(await screen.findByText('No licence')).toBeTruthy();
    expect(screen.getByText('Usage against the free limits')).toBeTruthy();
    expect(
      within(usageRow('Users'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['3', '5']);
    expect(
      within(usageRow('Gateways'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['0', '1']);
    expect(screen.getByText('Enterprise features are on.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove licence' })).toBeNull();
  });

  it('pastes a key, saves it and shows the active licence with its type, validity and limits', async () => {
    renderCard();
    const save = await screen.findByRole('button', { name: 'Save licence' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Licence key'), { target: { value: '  abc.def  ' } });
    fireEvent.click(save);
    expect(await screen.findByText('Active')).toBeTruthy();
    expect(calls).toEqual([{ method: 'PUT', body: { licence_key: 'abc.def' } }]);
    expect(screen.getByText('Acme')).toBeTruthy();
    expect(screen.getByText('lic-42')).toBeTruthy();
    expect(screen.getByText('Subscription (renews automatically)')).toBeTruthy();
    expect(screen.getByText(formatDate('en', '2027-01-01T00:00:00.000Z'))).toBeTruthy();
    expect(
      within(usageRow('Devices'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['4', 'Unlimited']);
    expect(screen.getByRole('button', { name: 'Replace licence' })).toBeTruthy();
  });

  it('shows the API refusing a bad key next to the field and keeps what was typed', async () => {
    putAnswer = () => problemResponse(400, 'license.invalid');
    renderCard();
    fireEvent.change(await screen.findByLabelText('Licence key'), { target: { value: 'garbage' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save licence' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This licence key is not valid: check that you pasted all of it.');
    expect((screen.getByLabelText('Licence key') as HTMLTextAreaElement).value).toBe('garbage');
    expect(screen.getByText('No licence')).toBeTruthy();
  });

  it('warns during the grace period with the date it ends', async () => {
    info = { ...ACTIVE, grace_period: true, grace_ends_at: '2027-01-15T00:00:00.000Z' };
    renderCard();
    const warning = await screen.findByRole('status');
    expect(warning.textContent).toContain(formatDate('en', '2027-01-15T00:00:00.000Z'));
    expect(warning.textContent).toContain('renew the subscription');
    expect(screen.getByText('Active · grace period')).toBeTruthy();
  });

  it('names what is over the limits when they are exceeded', async () => {
    info = {
      ...ACTIVE,
      status: 'limits_exceeded',
      usage: { ...ACTIVE.usage, users: 120 },
      exceeded: ['users'],
      enterprise_enabled: false,
    };
    renderCard();
    expect(await screen.findByText('Limits exceeded')).toBeTruthy();
    expect(screen.getByText(/Usage is over the licence's limits \(Users 120 \/ 100\)/)).toBeTruthy();
    expect(screen.getByText(/^Enterprise features are off/)).toBeTruthy();
  });

  it('removes the licence only after confirmation', async () => {
    info = ACTIVE;
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove licence' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove the licence?' });
    expect(calls).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove licence' }));
    await waitFor(() => expect(calls).toEqual([{ method: 'DELETE', body: undefined }]));
    expect(await screen.findByText('No licence')).toBeTruthy();
  });
});
