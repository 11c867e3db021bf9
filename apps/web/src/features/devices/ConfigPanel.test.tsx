import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as download from '@/lib/download';
import { ConfigPanel } from './ConfigPanel';
import { PRIVATE_KEY_PLACEHOLDER, withPrivateKey } from './config-text';

const TEMPLATE = `[Interface]\nPrivateKey = ${PRIVATE_KEY_PLACEHOLDER}\nAddress = 10.0.0.2/32\n\n[Peer]\nPublicKey = ${'B'.repeat(43)}=\nEndpoint = vpn.example.com:51820\n`;
const LOCATION = { id: 2, name: 'Warsaw HQ' };

describe('ConfigPanel', () => {
  it('marks a config with the key placeholder as a template, says where the key goes and shows no QR code', () => {
    render(<ConfigPanel config={TEMPLATE} deviceName="Anna Work Laptop" location={LOCATION} />);
    expect(screen.queryByRole('img')).toBeNull();
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('Template, not a working configuration');
    expect(note.textContent).toContain('[Interface]');
    expect(note.textContent).toContain('stays on the device that created it');
    expect(screen.getByRole('button', { name: 'Download template' })).toBeTruthy();
  });

  it('shows the QR code of a config that carries the real private key, and downloads it under a wg-quick name', () => {
    const save = vi.spyOn(download, 'downloadText').mockImplementation(() => {});
    const config = withPrivateKey(TEMPLATE, `${'A'.repeat(43)}=`);
    render(<ConfigPanel config={config} deviceName="Anna Work Laptop" location={LOCATION} />);
    expect(screen.getByRole('img', { name: 'QR code of the Warsaw HQ config' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Download config' }));
    expect(save).toHaveBeenCalledWith('Anna-Warsaw-H+2.conf', config);
  });
});
