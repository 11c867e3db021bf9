import { expect, request as playwrightRequest, test } from '@playwright/test';
import { generateSync } from 'otplib';
import { uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME, E2E_PORT } from '../support/constants';
import { type OidcTestApp, startOidcTestApp } from '../support/oidc-test-app';

const PALISADE = `http://127.0.0.1:${E2E_PORT}`;
/** The authenticator code `stepsAhead` 30-second steps from now (the API accepts ±1 step and refuses a replayed one). */
const totpCode = (secret: string, stepsAhead = 0) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

let app: OidcTestApp;
test.afterEach(async () => {
  await app?.close();
});

test('a real app signs a user in through the console: login, TOTP step, consent; the second visit skips consent; revoking ends its refresh and asks for consent again', async ({
  page,
}) => {
  const username = `oidc${uniqueSuffix()}`;
  const password = 'Oidc-User-Pass1!';
  const appName = `Test app ${uniqueSuffix()}`;
  app = await startOidcTestApp(PALISADE, 'openid profile email groups');

  // Setup through the API: the admin registers the app and adds the user; the user turns on TOTP.
  const admin = await playwrightRequest.newContext({ baseURL: PALISADE });
  expect((await admin.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } })).status()).toBe(200);
  const created = await admin.post('/api/v1/oauth', {
    data: { name: appName, redirect_uris: [app.redirectUri], scopes: ['openid', 'profile', 'email', 'groups'] },
  });
  expect(created.status()).toBe(201);
  const { client_id: clientId, client_secret: clientSecret } = (await created.json()) as { client_id: string; client_secret: string };
  await app.configure(clientId, clientSecret);
  const user = { username, first_name: 'Olga', last_name: 'Idc', email: `${username}@example.com`, password };
  expect((await admin.post('/api/v1/user', { data: user })).status()).toBe(201);
  await admin.dispose();
  const self = await playwrightRequest.newContext({ baseURL: PALISADE });
  expect((await self.post('/api/v1/auth', { data: { username, password } })).status()).toBe(200);
  const { secret } = (await (await self.post('/api/v1/auth/totp/init')).json()) as { secret: string };
  expect((await self.post('/api/v1/auth/totp', { data: { code: totpCode(secret) } })).status()).toBe(200);
  await self.dispose();

  // First visit: the app → Palisade's login → the TOTP step → the consent page → back at the app.
  await page.goto(app.origin);
  await page.getByRole('link', { name: 'Sign in with Palisade' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  // The code that turned TOTP on would be a replay: the next step's code (within the ±1 step window).
  await page.getByLabel('Authenticator app code').fill(totpCode(secret, 1));
  await expect(page).toHaveURL(/\/consent\?interaction=/);
  await expect(page.getByRole('heading', { name: `Sign in to ${appName}` })).toBeVisible();
  const scopes = page.getByRole('list', { name: 'What the app asks for' });
  await expect(scopes).toContainText('Your name and username');
  await expect(scopes).toContainText('Your email address');
  await expect(scopes).toContainText('The names of your groups');
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  expect(page.url().startsWith(`${app.origin}/callback`)).toBe(true);
  const claims = JSON.parse((await page.getByTestId('claims').textContent()) ?? '{}') as Record<string, unknown>;
  expect(claims).toMatchObject({ preferred_username: username, email: `${username}@example.com`, amr: ['pwd', 'mfa'], aud: clientId });
  expect(claims.sub).toEqual(expect.any(String));

  // Second visit: signed in to the console and consent given, so straight back to the app.
  const consoleVisits: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith(PALISADE)) consoleVisits.push(frame.url());
  });
  await page.goto(app.origin);
  await page.getByRole('link', { name: 'Sign in with Palisade' }).click();
  await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  expect(consoleVisits.filter((u) => /\/consent|\/login/.test(u))).toEqual([]);
  await page.getByRole('link', { name: 'Refresh tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Refresh worked' })).toBeVisible();

  // The user revokes the app in their profile: the app's refresh fails at once.
  await page.goto(`${PALISADE}/users/${username}`);
  const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Authorized apps' }) });
  await expect(card.getByText(appName)).toBeVisible();
  await card.getByRole('button', { name: `Revoke ${appName}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Revoke app access' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(card.getByText('No apps have been authorized to sign in with this account.')).toBeVisible();
  await page.goto(`${app.origin}/refresh`);
  await expect(page.getByRole('heading', { name: 'Refresh failed' })).toBeVisible();
  await expect(page.getByTestId('error')).toHaveText('invalid_grant');

  // After the revocation the app's next sign-in asks for consent again; Cancel tells the app access_denied.
  await page.goto(app.origin);
  await page.getByRole('link', { name: 'Sign in with Palisade' }).click();
  await expect(page.getByRole('heading', { name: `Sign in to ${appName}` })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Sign-in refused' })).toBeVisible();
  await expect(page.getByText('access_denied')).toBeVisible();
});
