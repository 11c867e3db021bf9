import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QrCode, qrPath } from './QrCode';

describe('QrCode', () => {
  it('encodes a whole WireGuard config into one SVG path with a quiet zone', () => {
    const config = `[Interface]\nPrivateKey = ${'A'.repeat(43)}=\nAddress = 10.0.0.2/32\n\n[Peer]\nPublicKey = ${'B'.repeat(43)}=\nAllowedIPs = 0.0.0.0/0\nEndpoint = vpn.example.com:51820\n`;
    const { size, path } = qrPath(config);
    expect(size).toBeGreaterThan(40);
    expect(path.startsWith('M')).toBe(true);
    render(<QrCode text={config} label="QR code" />);
    const svg = screen.getByRole('img', { name: 'QR code' });
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${size} ${size}`);
  });
});
