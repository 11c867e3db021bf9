import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CliTokenDialog } from './CliTokenDialog';

describe('CliTokenDialog', () => {
  it('shows the token, the URL and the palisade enroll command that redeems it', () => {
    render(
      <CliTokenDialog
        token={{ token: 'tok_123', expires_at: '2026-11-26T10:00:00.000Z', enrollment_url: 'https://vpn.example.com' }}
        onClose={vi.fn()}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'CLI enrollment token' });
    expect(within(dialog).getByText('sudo palisade enroll --url https://vpn.example.com --token tok_123 --up')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy command' })).toBeTruthy();
    expect(dialog.textContent).not.toContain('not available');
  });

  it('falls back to the console origin when the server has no public URL', () => {
    render(<CliTokenDialog token={{ token: 'tok_9', expires_at: '2026-11-26T10:00:00.000Z' }} onClose={vi.fn()} />);
    expect(screen.getByText(`sudo palisade enroll --url ${window.location.origin} --token tok_9 --up`)).toBeTruthy();
  });
});
