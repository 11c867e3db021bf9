import type { Device, VpnSession } from '@palisade/contracts';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DeviceItem } from './DeviceItem';

const device: Device = {
  id: 3,
  name: 'laptop',
  wireguard_pubkey: `${'K'.repeat(43)}=`,
  user_id: 2,
  created: '2026-11-01T10:00:00.000Z',
  is_active: false,
  networks: [
    { network_id: 1, network_name: 'Office', mfa_enabled: false, device_wireguard_ips: ['10.1.0.2'], is_active: false },
    { network_id: 7, network_name: 'Secure', mfa_enabled: true, device_wireguard_ips: ['10.7.0.2'], is_active: false },
  ],
};
const session: VpnSession = {
  id: 9,
  device_id: 3,
  device_name: 'laptop',
  location_id: 7,
  location_name: 'Secure',
  started_at: '2026-11-24T10:00:00.000Z',
  last_handshake: null,
  ended_at: null,
  end_reason: null,
};

const renderItem = (mfa?: Parameters<typeof DeviceItem>[0]['mfa']) =>
  render(
    <ul>
      <DeviceItem
        device={device}
        canManage={false}
        canViewConfig={false}
        onEdit={vi.fn()}
        onDelete={vi.fn()}
        onShowConfig={vi.fn()}
        mfa={mfa}
      />
    </ul>,
  );

describe('DeviceItem on MFA-protected locations', () => {
  it('offers Connect for the MFA location only, to the owner', () => {
    const onConnect = vi.fn();
    renderItem({ sessions: [], onConnect, onDisconnect: vi.fn() });
    expect(screen.getAllByRole('button', { name: 'Connect' })).toHaveLength(1);
    expect(screen.getByText('MFA required')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(onConnect).toHaveBeenCalledWith({ id: 7, name: 'Secure' });
  });

  it('offers Disconnect while a session is active', () => {
    const onDisconnect = vi.fn();
    renderItem({ sessions: [session], onConnect: vi.fn(), onDisconnect });
    expect(screen.getByText('MFA session active')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    expect(onDisconnect).toHaveBeenCalledWith(session);
  });

  it('shows no controls to someone else (an admin viewing the profile)', () => {
    renderItem(undefined);
    expect(screen.getByText('MFA required')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
  });
});
