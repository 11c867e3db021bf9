import { expect, type APIRequestContext, request as playwrightRequest, test } from '@playwright/test';
import { type ExternalIdp, startExternalIdp } from '../../apps/api/test/support/external-idp';
import { navigate, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME, E2E_PORT } from '../support/constants';

const PALISADE = `http://127.0.0.1:${E2E_PORT}`;

/**
 * Sign-in with the company's identity provider (docs/external-openid.md): a second
 * oidc-provider on loopback plays the IdP (it signs the browser in as the account it is told to,
 * without a form), Palisade is configured with it through the API, and the browser goes through
 * the login button, the IdP and the callback view.
 */
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
  const created = await admin.post('/api/v1/openid/provider', {
    data: {
      kind: 'Custom',
      name: 'Company',
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      base_url: idp.issuer,
      display_name: 'Sign in with Company SSO',
      username_handling: 'prune_email',
    },
  });
  expect(created.status()).toBe(201);
});

// Other specs sign in with a button named "Sign in": leave no provider (and its button) behind.
test.afterAll(async () => {
  await removeProvider();
  await admin.dispose();
  await idp?.close();
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
  expect(await me.json()).toMatchObject({ username: local, email: `${local}@corp.example`, first_name: 'Ext', last_name: 'User' });

  // The admin sees the provider in Settings › OpenID, with the redirect URL to register.
  const adminPage = await page.context().browser()?.newPage();
  if (!adminPage) throw new Error('no browser');
  await adminPage.goto(`${PALISADE}/login`);
  await adminPage.getByLabel('Username or email').fill(ADMIN_USERNAME);
  await adminPage.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await adminPage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(adminPage).not.toHaveURL(/\/login|\/auth\/redirect/);
  await navigate(adminPage, 'Settings');
  await adminPage.getByRole('link', { name: 'OpenID', exact: true }).click();
  const form = adminPage.getByRole('form', { name: 'OpenID' });
  await expect(form.getByLabel('Redirect URL')).toHaveValue(`${PALISADE}/auth/callback`);
  await expect(form.getByLabel('Base URL')).toHaveValue(idp.issuer);
  await adminPage.close();
});

test('a callback with a state that was never issued shows the error view with a way back to login', async ({ page }) => {
  await page.goto('/auth/callback?code=forged&state=forged');
  await expect(page.getByRole('heading', { name: 'An error occurred during external OpenID login' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in with Company SSO' })).toBeVisible();
});
