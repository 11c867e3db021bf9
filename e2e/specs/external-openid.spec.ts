import { expect, type APIRequestContext, request as playwrightRequest, test } from '@playwright/test';
import { type ExternalIdp, startExternalIdp } from '../../apps/api/test/support/external-idp';
import { navigate, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME, E2E_PORT } from '../support/constants';

const PALISADE = `http://127.0.0.1:${E2E_PORT}`;

/**
 * Sign-in with the company's identity provider (docs/external-openid.md): a second
 * oidc-provider on loopback plays the IdP (it signs the browser in as the account it is told to,
 * without a form); the admin configures Palisade with it in Settings › OpenID, and the browser goes
 * through the login button, the IdP and the callback view.
 */
// The sign-in tests use the provider the first test configures: one failure skips the rest.
test.describe.configure({ mode: 'serial' });

let idp: ExternalIdp;
let admin: APIRequestContext;

async function removeProvider() {
  const current = (await (await admin.get('/api/v1/openid/provider')).json()) as { provider: { name: string } | null };
  if (current.provider)
    expect((await admin.delete(`/api/v1/openid/provider/${encodeURIComponent(current.provider.name)}`)).status()).toBe(204);
}

test.beforeAll(async () => {
  idp = await startExternalIdp({ redirectUris: [`${PALISADE}/auth/callback`] });
  admin = await playwrightRequest.newContext({ baseURL: PALISADE });
  expect((await admin.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } })).status()).toBe(200);
  await removeProvider();
});

// Other specs sign in with a button named "Sign in": leave no provider (and its button) behind.
test.afterAll(async () => {
  await removeProvider();
  await admin.dispose();
  await idp?.close();
});

test('the admin sets up the provider in Settings › OpenID; the login page then offers its button', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(ADMIN_USERNAME);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login|\/auth\/redirect/);
  await navigate(page, 'Settings');
  await page.getByRole('link', { name: 'OpenID', exact: true }).click();
  const form = page.getByRole('form', { name: 'OpenID' });
  await expect(form.getByLabel('Redirect URL')).toHaveValue(`${PALISADE}/auth/callback`);
  await form.getByLabel('Base URL').fill(idp.issuer);
  await form.getByLabel('Client ID').fill(idp.clientId);
  await form.getByLabel(/^Client secret/).fill(idp.clientSecret);
  await form.getByLabel(/^Button text/).fill('Sign in with Company SSO');
  await form.getByLabel('Username handling').selectOption('prune_email');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Stored', { exact: true })).toBeVisible();
  await expect(form.getByRole('button', { name: 'Delete provider' })).toBeVisible();

  const visitor = await page.context().browser()?.newPage();
  if (!visitor) throw new Error('no browser');
  await visitor.goto(`${PALISADE}/login`);
  await expect(visitor.getByRole('button', { name: 'Sign in with Company SSO' })).toBeVisible();
  await visitor.close();
});

test('a new user signs in through the login button and the identity provider; the account is created', async ({ page }) => {
  const local = `ext${uniqueSuffix()}`;
  idp.setAccount({ sub: `sub-${local}`, email: `${local}@corp.example`, email_verified: true, given_name: 'Ext', family_name: 'User' });
  idp.signInAs(`sub-${local}`);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with Company SSO' }).click();
  // Out to the IdP and back through /auth/callback, into the console.
  await expect(page).not.toHaveURL(/\/login|\/auth\/(callback|redirect)/, { timeout: 15_000 });
  const me = await page.request.get('/api/v1/me');
  expect(me.status()).toBe(200);
  // prune_email: the part of the email address before @.
  expect(await me.json()).toMatchObject({ username: local, email: `${local}@corp.example`, first_name: 'Ext', last_name: 'User' });
});

test('a callback with a state that was never issued shows the error view with a way back to login', async ({ page }) => {
  await page.goto('/auth/callback?code=forged&state=forged');
  await expect(page.getByRole('heading', { name: 'An error occurred during external OpenID login' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in with Company SSO' })).toBeVisible();
});
