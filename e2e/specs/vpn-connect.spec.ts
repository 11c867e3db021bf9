import { expect, type Page, test } from '@playwright/test';
import { generateSync } from 'otplib';
import { signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME, E2E_PORT } from '../support/constants';
import { createUserViaApi, randomKey, uniqueSubnet } from '../support/locations';
import { startSmtpServer } from '../support/smtp-server';

/** A JSON request from the page's session (the console's own origin and cookies). */
async function post(page: Page, url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ({ url, body }) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    { url, body },
  );
}

/** The authenticator code `stepsAhead` time steps from now (a step once accepted is refused again). */
const totpCode = (secret: string, stepsAhead = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** As the admin: an MFA-protected location and a user (signs in and out). */
async function seed(page: Page, location: string, username: string, password: string) {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const created = await post(page, '/api/v1/network', {
    name: location,
    address: [uniqueSubnet().gateway],
    endpoint: 'secure.example.com',
    port: 51820,
    mfa_enabled: true,
  });
  expect(created.status).toBe(201);
  await createUserViaApi(page, username, password);
  await signOut(page);
}

test('a user with an authenticator app connects a device to an MFA-protected location and sees its preshared key once', async ({
  page,
}) => {
  const suffix = uniqueSuffix();
  const username = `vic${suffix}`;
  const password = 'Vic-Connect1!';
  const location = `secure-${suffix}`;
  const device = `laptop-${suffix}`;

  await seed(page, location, username, password);

  // The user turns on the authenticator app (the console flow has its own spec) and adds a device.
  await signIn(page, username, password);
  const init = await post(page, '/api/v1/auth/totp/init', {});
  const secret = String(init.json.secret);
  expect((await post(page, '/api/v1/auth/totp', { code: totpCode(secret) })).status).toBeLessThan(300);
  expect((await post(page, `/api/v1/device/${username}`, { name: device, wireguard_pubkey: randomKey() })).status).toBe(201);

  await page.goto(`/users/${username}`);
  // The device joins every location the user may use: act on this location's line.
  const item = page.getByRole('listitem', { name: device }).getByRole('listitem').filter({ hasText: location });
  await expect(item.getByText('MFA required')).toBeVisible();
  await item.getByRole('button', { name: 'Connect' }).click();

  const dialog = page.getByRole('dialog', { name: `Connect ${device} to ${location}` });
  await expect(dialog.getByText(`${location} is protected with two-factor authentication.`, { exact: false })).toBeVisible();
  const code = dialog.getByLabel('Authenticator app code');
  await expect(code).toBeEnabled();
  const next = totpCode(secret, 1);
  await code.fill(next === '000000' ? '111111' : '000000');
  await expect(dialog.getByRole('alert')).toHaveText('Code is invalid');
  await code.fill(next);

  await expect(dialog.getByText('This preshared key is shown only once. Copy it now.')).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Preshared key line' })).toHaveText(/^PresharedKey = [A-Za-z0-9+/]{43}=$/);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toHaveCount(0);

  await expect(item.getByText('MFA session active')).toBeVisible();
  await item.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText(`Disconnected from ${location}.`)).toBeVisible();
  await expect(item.getByText('MFA required')).toBeVisible();
  await expect(item.getByRole('button', { name: 'Connect' })).toBeVisible();
});

test('a user with email codes connects with the code the Connect dialog has mailed', async ({ page }) => {
  const smtp = await startSmtpServer();
  const suffix = uniqueSuffix();
  const username = `eve${suffix}`;
  const password = 'Eve-Connect1!';
  const location = `mailed-${suffix}`;
  const device = `phone-${suffix}`;
  try {
    await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    const smtpSet = await page.context().request.patch('/api/v1/settings', {
      data: { smtp_server: '127.0.0.1', smtp_port: smtp.port, smtp_encryption: 'none', smtp_sender: 'vpn@example.com' },
    });
    expect(smtpSet.status()).toBe(200);
    await signOut(page);
    await seed(page, location, username, password);

    // The user turns on email codes (the console flow has its own spec) and adds a device.
    await signIn(page, username, password);
    expect((await post(page, '/api/v1/auth/email/init', {})).status).toBe(204);
    expect((await post(page, '/api/v1/auth/email', { code: await smtp.codeOfMail(1) })).status).toBeLessThan(300);
    expect((await post(page, `/api/v1/device/${username}`, { name: device, wireguard_pubkey: randomKey() })).status).toBe(201);

    await page.goto(`/users/${username}`);
    const item = page.getByRole('listitem', { name: device }).getByRole('listitem').filter({ hasText: location });
    await item.getByRole('button', { name: 'Connect' }).click();
    const dialog = page.getByRole('dialog', { name: `Connect ${device} to ${location}` });
    await expect(dialog.getByText('We sent a 6-digit code to your email address', { exact: false })).toBeVisible();
    await expect(dialog.getByRole('button', { name: /Send a new code in \d+ seconds?/ })).toBeDisabled();
    const code = await smtp.codeOfMail(2);
    expect(smtp.received[1]?.to).toEqual([`${username}@example.com`]);
    await dialog.getByLabel('Code sent by email').fill(code);
    await expect(dialog.getByRole('group', { name: 'Preshared key line' })).toHaveText(/^PresharedKey = [A-Za-z0-9+/]{43}=$/);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(item.getByText('MFA session active')).toBeVisible();
  } finally {
    await page.context().request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    await page.context().request.patch('/api/v1/settings', {
      data: { smtp_server: '', smtp_user: '', smtp_password: '', smtp_sender: '', smtp_encryption: 'starttls' },
    });
    await smtp.close();
  }
});

test.describe('security keys', () => {
  // WebAuthn needs HTTPS or localhost: the relying party is the console's own origin.
  test.use({ baseURL: `http://localhost:${E2E_PORT}` });

  test('a user with a security key connects by touching it (Chromium’s virtual authenticator)', async ({ page }) => {
    const suffix = uniqueSuffix();
    const username = `kai${suffix}`;
    const password = 'Kai-Connect1!';
    const location = `keyed-${suffix}`;
    const device = `tablet-${suffix}`;
    await seed(page, location, username, password);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'usb',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await signIn(page, username, password);
    expect((await post(page, `/api/v1/device/${username}`, { name: device, wireguard_pubkey: randomKey() })).status).toBe(201);
    await page.goto(`/users/${username}`);
    const keys = page.getByRole('region', { name: 'Security keys' });
    await keys.getByRole('button', { name: 'Add security key' }).click();
    const add = page.getByRole('dialog', { name: 'Add security key' });
    await add.getByLabel('Key name').fill('Desk key');
    await add.getByRole('button', { name: 'Register key' }).click();
    await page.getByRole('dialog', { name: 'Recovery codes' }).getByRole('button', { name: 'I have saved them' }).click();

    const item = page.getByRole('listitem', { name: device }).getByRole('listitem').filter({ hasText: location });
    await item.getByRole('button', { name: 'Connect' }).click();
    const dialog = page.getByRole('dialog', { name: `Connect ${device} to ${location}` });
    await expect(dialog.getByText('Use your security key or passkey', { exact: false })).toBeVisible();
    await dialog.getByRole('button', { name: 'Use security key' }).click();
    await expect(dialog.getByRole('group', { name: 'Preshared key line' })).toHaveText(/^PresharedKey = [A-Za-z0-9+/]{43}=$/);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(item.getByText('MFA session active')).toBeVisible();
  });
});
