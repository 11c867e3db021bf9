import { expect, type Page, test } from '@playwright/test';
import { generateSync } from 'otplib';
import { signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME, E2E_PORT } from '../support/constants';

/** Creates a user through the API from the signed-in admin page. */
async function createUser(page: Page, username: string, password: string) {
  const status = await page.evaluate(
    async ({ username, password }) =>
      (
        await fetch('/api/v1/user', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, first_name: 'Mia', last_name: 'Factor', email: `${username}@example.com`, password }),
        })
      ).status,
    { username, password },
  );
  expect(status).toBe(201);
}

/**
 * The authenticator code `stepsAhead` time steps from now. A code once accepted is refused again
 * (replay), and the API accepts ±1 step, so a later sign-in uses the next step's code.
 */
const totpCode = (secret: string, stepsAhead = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

async function passwordStep(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
}

test('a user enables an authenticator app, then signs in with its code and with a recovery code', async ({ page }) => {
  const username = `mia${uniqueSuffix()}`;
  const password = 'Mia-Factor1!';
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUser(page, username, password);
  await signOut(page);

  await signIn(page, username, password);
  await page.goto(`/users/${username}`);
  const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Two-factor authentication' }) });
  await expect(card.getByText('Two-factor authentication is off.', { exact: false })).toBeVisible();
  await card.getByRole('button', { name: 'Enable: Authenticator app code' }).click();
  const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await expect(setup.getByRole('img', { name: 'QR code of the authenticator secret' })).toBeVisible();
  const secret = (await setup.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  // Six digits submit on their own.
  await setup.getByLabel('Code from the app').fill(totpCode(secret));

  const recovery = page.getByRole('dialog', { name: 'Recovery codes' });
  await expect(recovery.getByRole('listitem')).toHaveCount(10);
  const codes = await recovery.getByRole('listitem').allTextContents();
  await expect(recovery.getByRole('button', { name: 'Download as .txt' })).toBeVisible();
  await recovery.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByText('10 recovery codes left')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Disable: Authenticator app code' })).toBeVisible();
  await signOut(page);

  // The second step: the language switch works on it; a wrong code is refused; the right one signs in.
  await passwordStep(page, username, password);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('pl');
  await expect(page.getByRole('heading', { name: 'Uwierzytelnianie dwuskładnikowe' })).toBeVisible();
  await expect(page.getByText('Wpisz 6-cyfrowy kod z aplikacji uwierzytelniającej.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Język' }).selectOption('en');
  const code = page.getByLabel('Authenticator app code');
  const wrong = totpCode(secret, 1) === '000000' ? '111111' : '000000';
  await code.fill(wrong);
  await expect(page.getByRole('alert')).toHaveText('Code is invalid');
  await code.fill(totpCode(secret, 1));
  await expect(page).not.toHaveURL(/\/login|\/auth\/redirect/);
  await signOut(page);

  // A recovery code signs in once.
  await passwordStep(page, username, password);
  await page.getByRole('button', { name: 'Recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login|\/auth\/redirect/);
  await page.goto(`/users/${username}`);
  await expect(card.getByText('9 recovery codes left')).toBeVisible();
  await signOut(page);
});

test.describe('security keys', () => {
  // WebAuthn needs HTTPS or localhost: the relying party is the console's own origin.
  test.use({ baseURL: `http://localhost:${E2E_PORT}` });

  test('a user registers a key with Chromium’s virtual authenticator, is refused a second registration of it, and signs in with it', async ({
    page,
  }) => {
    const username = `kim${uniqueSuffix()}`;
    const password = 'Kim-Factor1!';
    await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    await createUser(page, username, password);
    await signOut(page);

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
    await page.goto(`/users/${username}`);
    const keys = page.getByRole('region', { name: 'Security keys' });
    await expect(keys.getByText('No security keys yet.')).toBeVisible();
    await keys.getByRole('button', { name: 'Add security key' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add security key' });
    await dialog.getByLabel('Key name').fill('Desk key');
    await dialog.getByRole('button', { name: 'Register key' }).click();
    // The first method brings the recovery codes.
    const recovery = page.getByRole('dialog', { name: 'Recovery codes' });
    await expect(recovery.getByRole('listitem')).toHaveCount(10);
    await recovery.getByRole('button', { name: 'I have saved them' }).click();
    await expect(keys.getByRole('listitem')).toHaveText(['Desk keyDelete']);

    await keys.getByRole('button', { name: 'Add security key' }).click();
    dialog = page.getByRole('dialog', { name: 'Add security key' });
    await dialog.getByLabel('Key name').fill('Same key');
    await dialog.getByRole('button', { name: 'Register key' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Key is already registered');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(keys.getByRole('listitem')).toHaveCount(1);
    await signOut(page);

    await passwordStep(page, username, password);
    await expect(page.getByText('Insert or touch your security key, or use your passkey, when the browser asks.')).toBeVisible();
    await page.getByRole('button', { name: 'Use security key' }).click();
    await expect(page).not.toHaveURL(/\/login|\/auth\/redirect/);
    await signOut(page);
  });
});
