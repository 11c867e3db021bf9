import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { AssignedIpField } from './AssignedIpField';

let checked: string[][] = [];

function Harness({ initial, ownIps }: { initial: string; ownIps?: string[] }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  const [value, setValue] = useState(initial);
  return (
    <QueryClientProvider client={client}>
      <AssignedIpField locationId={4} value={value} onValueChange={setValue} shouldSuggest={false} ownIps={ownIps ?? []} />
    </QueryClientProvider>
  );
}

beforeEach(() => {
  checked = [];
  setFetchHandler(async (request) => {
    const { ips } = (await request.json()) as { ips: string[] };
    checked.push(ips);
    // The server sees the device's own address as in use (by itself).
    return jsonResponse(200, {
      results: ips.map((ip) => (ip === '10.4.0.5' ? { ip, valid: false, code: 'network.ip_in_use' } : { ip, valid: true })),
    });
  });
});

afterEach(() => vi.useRealTimers());

describe('AssignedIpField while editing', () => {
  it('calls the unchanged address the device\'s current one, without "available" or "prefilled", and checks nothing', async () => {
    vi.useFakeTimers();
    render(<Harness initial="10.4.0.5" ownIps={['10.4.0.5']} />);
    expect(screen.getByText('Current address of this device')).toBeTruthy();
    expect(screen.getByText('Separate several addresses with commas.')).toBeTruthy();
    expect(screen.queryByText(/Prefilled/)).toBeNull();
    act(() => void vi.advanceTimersByTime(1000)); // well past the 350 ms debounce
    vi.useRealTimers();
    await act(async () => {});
    expect(checked).toEqual([]);
    expect(screen.queryByText('Address is available')).toBeNull();
  });

  it('checks a changed address and says when it is available', async () => {
    render(<Harness initial="10.4.0.5" ownIps={['10.4.0.5']} />);
    fireEvent.change(screen.getByLabelText('Assigned IP'), { target: { value: '10.4.0.9' } });
    expect(await screen.findByText('Address is available', {}, { timeout: 2000 })).toBeTruthy();
    expect(checked).toEqual([['10.4.0.9']]);
    expect(screen.queryByText('Current address of this device')).toBeNull();
  });
});
