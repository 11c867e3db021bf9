import { expect, type Page, test } from '@playwright/test';
import { type Slapd, startSlapd } from '../../apps/api/test/support/slapd';
import { navigate, signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

const LDAP_PASSWORD = 'ldap-Secret-1';

let slapd: Slapd;
const uid = `ldap${uniqueSuffix()}`;

test.beforeAll(async () => {
  slapd = await startSlapd({ users: [{ uid, password: LDAP_PASSWORD, givenName: 'Lena', sn: 'Directory', mail: `${uid}@corp.example` }] });
});

test.afterAll(async () => {
  await slapd?.stop();
});

async function restore(page: Page) {
  const request = page.context().request;
  await request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  const res = await request.patch('/api/v1/settings', {
    data: { ldap_enabled: false, ldap_url: '', ldap_bind_username: '', ldap_bind_password: '', ldap_user_search_base: '' },
  });
  expect(res.status()).toBe(200);
  await request.delete(`/api/v1/user/${uid}`);
}

test('an admin connects LDAP, tests the connection, and an LDAP user signs in with the LDAP password', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    await navigate(page, 'Settings');
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'LDAP', exact: true }).click();
    const form = page.getByRole('form', { name: 'LDAP' });
    const test = page.getByRole('button', { name: 'Test connection' });

    // A server nothing listens on: the test says why, in the console's words plus the reason.
    await form.getByLabel('Server URL').fill('ldap://127.0.0.1:1');
    await form.getByLabel('Bind username (optional)').fill(slapd.rootDn);
    await form.getByLabel('Bind password (optional)').fill(slapd.rootPassword);
    await form.getByLabel('User search base').fill(slapd.peopleBase);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await expect(form.getByText('Password set')).toBeVisible();
    await test.click();
    await expect(page.getByText(/^LDAP connection rejected: the server refused the connection/)).toBeVisible();

    // The real server: success; then sign-in with LDAP passwords switched on.
    await form.getByLabel('Server URL').fill(slapd.url);
    await form.getByLabel('Enable LDAP sign-in').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    await test.click();
    await expect(page.getByText('Connection successful.')).toBeVisible();

    await signOut(page);
    await signIn(page, uid, LDAP_PASSWORD);
    const me = await page.context().request.get('/api/v1/me');
    expect(await me.json()).toMatchObject({ username: uid, first_name: 'Lena', last_name: 'Directory', email: `${uid}@corp.example` });
  } finally {
    await restore(page);
  }
});
