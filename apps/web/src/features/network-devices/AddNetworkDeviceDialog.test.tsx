import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { AddNetworkDeviceDialog } from './AddNetworkDeviceDialog';

function Harness() {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  return (
    <QueryClientProvider client={client}>
      <AddNetworkDeviceDialog onClose={vi.fn()} onCreated={vi.fn()} onToken={vi.fn()} />
    </QueryClientProvider>
  );
}

beforeEach(() => {
  setFetchHandler((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/v1/network') return jsonResponse(200, [{ id: 4, name: 'DC', mfa_enabled: false }]);
    if (url.pathname === '/api/v1/device/network/ip/4') return jsonResponse(200, { ips: ['10.4.0.2'] });
    return jsonResponse(200, { results: [] });
  });
});

describe('AddNetworkDeviceDialog', () => {
  it('clears a field\'s "Field required" as soon as that field is filled, and only that one', async () => {
    render(<Harness />);
    const dialog = screen.getByRole('dialog', { name: 'Add network device' });
    await within(dialog).findByRole('option', { name: 'DC' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add device' }));
    const name = within(dialog).getByLabelText('Device name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getAllByText('Field required')).toHaveLength(2);

    fireEvent.change(name, { target: { value: 'printer' } });
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(within(dialog).getAllByText('Field required')).toHaveLength(1);

    fireEvent.change(within(dialog).getByLabelText('Location'), { target: { value: '4' } });
    expect(within(dialog).queryByText('Field required')).toBeNull();
  });
});
