import type { Worker, WorkerJob } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { ProvisionDialog } from './ProvisionDialog';

const POLL_MS = 20;
const workers: Worker[] = [
  { id: 1, name: 'desk-1', available: true, created_at: '2026-01-01T00:00:00Z' },
  { id: 2, name: 'desk-2', available: false, created_at: '2026-01-01T00:00:00Z' },
];
const job = (state: WorkerJob['state'], extra: Partial<WorkerJob> = {}): WorkerJob => ({
  id: 7,
  worker: 'desk-1',
  username: 'anna',
  state,
  created_at: '2026-01-01T00:00:00Z',
  ...extra,
});

let posted: unknown[];
let polls: number;
/** The states the job answers, one per poll; the last one repeats. */
let states: WorkerJob[];

beforeEach(() => {
  posted = [];
  polls = 0;
  setFetchHandler(async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && path === '/api/v1/worker/job') {
      posted.push(await request.json());
      return jsonResponse(201, { id: 7 });
    }
    if (request.method === 'GET' && path === '/api/v1/worker/7') {
      const answer = states[Math.min(polls, states.length - 1)];
      polls += 1;
      return jsonResponse(200, answer);
    }
    return new Response(null, { status: 404 });
  });
});

afterEach(() => vi.useRealTimers());

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onClose = vi.fn();
  const view = render(
    <QueryClientProvider client={client}>
      <ProvisionDialog workers={workers} onClose={onClose} pollMs={POLL_MS} />
    </QueryClientProvider>,
  );
  return { dialog: screen.getByRole('dialog', { name: 'Provision a YubiKey' }), view };
}

function start(dialog: HTMLElement) {
  fireEvent.change(within(dialog).getByLabelText(/Username/), { target: { value: 'anna' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Provision' }));
}

/** Waits long enough for several more polls, had the dialog kept polling. */
const settle = () => new Promise((resolve) => setTimeout(resolve, POLL_MS * 6));

describe('ProvisionDialog', () => {
  it('offers only available stations, queues the job and follows it to success, then stops polling', async () => {
    states = [job('in_progress'), job('in_progress'), job('success', { serial: '12345678' })];
    const { dialog } = renderDialog();
    const station = within(dialog).getByLabelText('Station') as HTMLSelectElement;
    expect([...station.options].map((o) => o.value)).toEqual(['desk-1']);
    start(dialog);
    await waitFor(() => expect(within(dialog).getByText(/Provisioning in progress/)).toBeTruthy());
    expect(posted).toEqual([{ username: 'anna', worker: 'desk-1' }]);
    await waitFor(() => expect(within(dialog).getByText('YubiKey provisioned for anna. Serial number: 12345678.')).toBeTruthy());
    const seen = polls;
    expect(seen).toBe(3);
    await settle();
    expect(polls).toBe(seen);
  });

  it('shows the failure with the station’s text and stops polling', async () => {
    states = [job('in_progress'), job('error', { error: 'No card found in the station' })];
    const { dialog } = renderDialog();
    start(dialog);
    await waitFor(() => expect(within(dialog).getByText('Provisioning failed !')).toBeTruthy());
    expect(within(dialog).getByText('No card found in the station')).toBeTruthy();
    const seen = polls;
    await settle();
    expect(polls).toBe(seen);
  });

  it('stops polling when the dialog closes while the job is in progress', async () => {
    states = [job('in_progress')];
    const { dialog, view } = renderDialog();
    start(dialog);
    await waitFor(() => expect(polls).toBeGreaterThanOrEqual(2));
    view.unmount();
    const seen = polls;
    await settle();
    expect(polls).toBeLessThanOrEqual(seen + 1);
  });

  it('suggests users from a server search as the name is typed', async () => {
    const searches: string[] = [];
    setFetchHandler(async (request) => {
      const url = new URL(request.url);
      if (url.pathname !== '/api/v1/user') return new Response(null, { status: 404 });
      searches.push(url.searchParams.get('search') ?? '');
      return jsonResponse(200, {
        items: [{ id: 3, username: 'anna', first_name: 'Anna', last_name: 'Nowak' }],
        total: 1,
        page: 1,
        per_page: 10,
      });
    });
    const { dialog } = renderDialog();
    fireEvent.change(within(dialog).getByLabelText(/Username/), { target: { value: 'an' } });
    await waitFor(() => expect(dialog.querySelector('datalist option')?.getAttribute('value')).toBe('anna'));
    expect(searches).toEqual(['an']);
  });

  it('says so when the job status cannot be read', async () => {
    states = [];
    setFetchHandler(async (request) => (request.method === 'POST' ? jsonResponse(201, { id: 7 }) : new Response(null, { status: 500 })));
    const { dialog } = renderDialog();
    start(dialog);
    await waitFor(() => expect(within(dialog).getByText('Error while getting worker status.')).toBeTruthy());
  });
});
