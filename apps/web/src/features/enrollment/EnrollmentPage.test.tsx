import type { EnrollmentSession } from '@palisade/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { EnrollmentPage } from './EnrollmentPage';
import { renderPublicPage } from './test-router';

const SESSION: EnrollmentSession = {
  user: { username: 'nina', first_name: 'Nina', last_name: 'New', email: 'nina@example.com' },
  welcome_message: '## House rules\n\n<script>window.enrolPwned = true</script>[help](javascript:alert(1))',
  vpn_step_optional: false,
  password_set: false,
  devices_added: 0,
  locations: [{ id: 1, name: 'Office' }],
  expires_at: '2026-11-26T10:00:00Z',
};

const CONFIG =
  '[Interface]\nPrivateKey = YOUR_PRIVATE_KEY\nAddress = 10.1.0.2/32\n\n[Peer]\nPublicKey = ' +
  `${'B'.repeat(43)}=` +
  '\nEndpoint = vpn.example.com:51820\nAllowedIPs = 10.1.0.0/24\n';

let calls: { method: string; path: string; body: unknown }[] = [];

function serve(session: EnrollmentSession, overrides: Record<string, () => Response> = {}, essentials: Record<string, unknown> = {}) {
  setFetchHandler(async (request) => {
    const path = new URL(request.url).pathname;
    const body = request.method === 'GET' ? undefined : await request.json().catch(() => undefined);
    calls.push({ method: request.method, path, body });
    const override = overrides[path];
    if (override) return override();
    switch (path) {
      case '/api/v1/enrollment/start':
      case '/api/v1/enrollment/session':
        return jsonResponse(200, session);
      case '/api/v1/enrollment/password':
        return new Response(null, { status: 204 });
      case '/api/v1/enrollment/device': {
        const { name, wireguard_pubkey } = body as { name: string; wireguard_pubkey: string };
        return jsonResponse(201, {
          device: { id: 7, name, wireguard_pubkey, user_id: 5, created: '2026-11-25T00:00:00Z' },
          configs: [{ network_id: 1, network_name: 'Office', assigned_ips: ['10.1.0.2'], config: CONFIG }],
        });
      }
      case '/api/v1/enrollment/finish':
        return jsonResponse(200, { username: 'nina', welcome_email_sent: true });
      default:
        return jsonResponse(200, { instance_name: 'Palisade', ...essentials });
    }
  });
}

const setPassword = async (password: string) => {
  fireEvent.change(await screen.findByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
};

beforeEach(() => {
  calls = [];
});

describe('Enrollment page', () => {
  it('redeems the token once, drops it from the address, and renders the welcome message inert', async () => {
    serve(SESSION);
    const router = renderPublicPage({ enrollment: EnrollmentPage }, '/enrollment?token=abc123');
    expect(await screen.findByRole('heading', { name: 'Welcome, Nina' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'House rules' })).toBeTruthy();
    expect(document.querySelector('main script, main a[href^="javascript"]')).toBeNull();
    expect((window as unknown as { enrolPwned?: boolean }).enrolPwned).toBeUndefined();
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(calls.filter((c) => c.path === '/api/v1/enrollment/start')).toEqual([
      { method: 'POST', path: '/api/v1/enrollment/start', body: { token: 'abc123' } },
    ]);
  });

  it('walks welcome → password (live checklist) → mandatory device (keys made here) → done', async () => {
    serve(SESSION);
    renderPublicPage({ enrollment: EnrollmentPage }, '/enrollment?token=abc123');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));

    const checklist = await screen.findByRole('list', { name: 'Password requirements' });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'abc' } });
    expect(within(checklist).getAllByText(/— met$/)).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Abcdef1!' } });
    expect(within(checklist).getAllByText(/— met$/)).toHaveLength(5);
    await setPassword('Abcdef1!x');
    expect(await screen.findByRole('heading', { name: 'Add your first VPN device' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/v1/enrollment/password')?.body).toEqual({ password: 'Abcdef1!x' });

    expect(screen.queryByRole('button', { name: 'Skip this step' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Device name'), { target: { value: 'laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create device' }));
    const office = await screen.findByRole('region', { name: 'Office' });
    const sent = calls.find((c) => c.path === '/api/v1/enrollment/device')?.body as { wireguard_pubkey: string };
    expect(sent.wireguard_pubkey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(within(office).getByRole('img', { name: /QR/ })).toBeTruthy();
    expect(office.textContent).not.toContain('YOUR_PRIVATE_KEY');

    fireEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByRole('heading', { name: 'You are all set' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/v1/enrollment/finish')?.body).toEqual({ locale: 'en' });
    expect(screen.getByRole('link', { name: 'Go to sign in' }).getAttribute('href')).toBe('/login');
  });

  it('offers Skip only when the VPN step is optional, and finishes without a device', async () => {
    serve({ ...SESSION, vpn_step_optional: true, password_set: true });
    renderPublicPage({ enrollment: EnrollmentPage }, '/enrollment?token=abc123');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Skip this step' }));
    expect(await screen.findByRole('heading', { name: 'You are all set' })).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/v1/enrollment/device')).toBe(false);
  });

  it('has no VPN device step while the WireGuard module is off: the password ends the flow', async () => {
    serve({ ...SESSION, vpn_step_optional: true }, {}, { wireguard_enabled: false });
    renderPublicPage({ enrollment: EnrollmentPage }, '/enrollment?token=abc123');
    const steps = await screen.findByRole('list', { name: 'Enrollment steps' });
    await waitFor(() => expect(within(steps).queryByText('VPN device')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await setPassword('Abcdef1!x');
    expect(await screen.findByRole('heading', { name: 'You are all set' })).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/v1/enrollment/device')).toBe(false);
  });

  it('shows one clear page for a wrong, expired or used link', async () => {
    serve(SESSION, { '/api/v1/enrollment/start': () => problemResponse(400, 'enrollment.token_invalid') });
    renderPublicPage({ enrollment: EnrollmentPage }, '/enrollment?token=used');
    expect(await screen.findByRole('heading', { name: 'This link cannot be used' })).toBeTruthy();
    expect(screen.getByText(/invalid, has expired or was already used/)).toBeTruthy();
  });

  it('keeps the password form when the server refuses the password, with the reason under the field', async () => {
    serve(SESSION, {
      '/api/v1/enrollment/password': () =>
        problemResponse(400, 'validation.failed', [{ path: 'password', code: 'password.special', message: 'x' }]),
    });
    renderPublicPage({ enrollment: EnrollmentPage }, '/enrollment?token=abc123');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    await setPassword('Abcdef1!x');
    await waitFor(() => expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByRole('heading', { name: 'Add your first VPN device' })).toBeNull();
  });
});
