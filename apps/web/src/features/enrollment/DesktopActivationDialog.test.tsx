import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { activationQrText, DesktopActivationDialog } from './DesktopActivationDialog';

const ACTIVATION = { token: 'desk-token-1', url: 'https://vpn.example.com/', expires_at: '2026-11-26T10:00:00Z' };
const wrap = (node: React.ReactNode) => (
  <StrictMode>
    <QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>
  </StrictMode>
);

describe('Desktop activation', () => {
  it('issues one token (not one per render) and shows it once with the URL and a QR code of both', async () => {
    const paths: string[] = [];
    setFetchHandler((request) => {
      paths.push(`${request.method} ${new URL(request.url).pathname}`);
      return jsonResponse(200, ACTIVATION);
    });
    render(wrap(<DesktopActivationDialog user={{ username: 'nina' }} onClose={() => {}} />));
    const dialog = await screen.findByRole('dialog', { name: 'Desktop activation for nina' });
    expect(await within(dialog).findByText('desk-token-1')).toBeTruthy();
    expect(within(dialog).getByText('https://vpn.example.com/')).toBeTruthy();
    expect(within(dialog).getByRole('img', { name: 'QR code with the URL and token' })).toBeTruthy();
    expect(paths).toEqual(['POST /api/v1/user/nina/start_desktop']);
    expect(JSON.parse(activationQrText(ACTIVATION))).toEqual({ url: 'https://vpn.example.com/', token: 'desk-token-1' });
  });

  it('says why when no token could be issued', async () => {
    setFetchHandler(() => problemResponse(404, 'user.not_found'));
    render(wrap(<DesktopActivationDialog user={{ username: 'ghost' }} onClose={() => {}} />));
    expect(await screen.findByRole('alert')).toBeTruthy();
  });
});
