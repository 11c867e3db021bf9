import type { Gateway } from '@palisade/contracts';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GatewaysTable } from './GatewaysTable';

const gateway = (over: Partial<Gateway>): Gateway => ({
  id: 1,
  location_id: 1,
  gateway_id: 'g1',
  name: 'gw-warsaw-1',
  hostname: 'gw-warsaw-1',
  version: '0.1.0',
  interface_name: 'wg0',
  wireguard_implementation: 'kernel',
  connected: true,
  connected_at: '2026-11-24T08:00:00.000Z',
  acknowledged_revision: 3,
  location_revision: 3,
  state: 'synced',
  ...over,
});

describe('GatewaysTable', () => {
  it('shows the host name once when the gateway is named after its host', () => {
    render(<GatewaysTable gateways={[gateway({})]} onDelete={() => undefined} />);
    expect(screen.getAllByText('gw-warsaw-1')).toHaveLength(1);
  });

  it('adds the host name under a gateway name that differs from it', () => {
    render(<GatewaysTable gateways={[gateway({ name: 'Warsaw primary', hostname: 'gw-warsaw-1' })]} onDelete={() => undefined} />);
    expect(screen.getByText('Warsaw primary')).toBeTruthy();
    expect(screen.getByText('gw-warsaw-1')).toBeTruthy();
  });

  it('marks a disconnected gateway red', () => {
    render(<GatewaysTable gateways={[gateway({ connected: false, connected_at: undefined })]} onDelete={() => undefined} />);
    expect(screen.getByText('Disconnected').className).toContain('badge--error');
  });
});
