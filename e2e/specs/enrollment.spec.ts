import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { randomKey, uniqueSubnet } from '../support/locations';

test('admin starts a manual enrollment; the new person sets a password, adds the mandatory VPN device and signs in', async ({
  page,
  browser,
  baseURL,
}) => {
  const suffix = uniqueSuffix();
  const username = `nina${suffix}`;
  const location = `hq-${suffix}`;
  const password = 'Nina-Enrol1!';
  const subnet = uniqueSubnet();

  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  // A user without a password (the admin never knows it) and a location the first device gets a config for.
  const created = await page.evaluate(
    async ({ username, location, gateway }) => {
      const post = (path: string, body: unknown) =>
        fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const user = await post('/api/v1/user', { username, first_name: 'Nina', last_name: 'New', email: `${username}@example.com` });
      const network = await post('/api/v1/network', { name: location, address: [gateway], endpoint: 'hq.example.com', port: 51820 });
      return [user.status, network.status];
    },
    { username, location, gateway: subnet.gateway },
  );
  expect(created).toEqual([201, 201]);

  // Enrollment settings: a welcome message (with markup that must stay inert) and the VPN step made mandatory.
  await navigate(page, 'Enrollment');
  const settings = page.getByRole('form', { name: 'Enrollment' });
  await settings
    .getByRole('textbox', { name: 'Welcome message' })
    .fill(`## Welcome to ${location}\n\n<script>window.enrolPwned = 1</script>`);
  const optional = settings.getByRole('checkbox', { name: 'The VPN device step is optional' });
  if (await optional.isChecked()) await optional.uncheck();
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Enrollment settings saved.')).toBeVisible();

  // Start a manual enrollment from the user list and read the link from the dialog.
  await page.goto(`/users?search=${username}`);
  await page.getByRole('button', { name: `Actions for ${username}` }).click();
  await page.getByRole('menuitem', { name: 'Start enrollment' }).click();
  const start = page.getByRole('dialog', { name: `Start enrollment for ${username}` });
  await start.getByRole('radio', { name: /Deliver it myself/ }).check();
  await start.getByRole('button', { name: 'Start enrollment' }).click();
  const linkDialog = page.getByRole('dialog', { name: `Enrollment link for ${username}` });
  await expect(linkDialog.getByRole('img', { name: 'QR code of the enrollment link' })).toBeVisible();
  const link = new URL((await linkDialog.getByTestId('enrollment-url').textContent()) ?? '');
  expect(link.pathname).toBe('/enrollment');
  expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // The new person, in a browser of their own.
  const context = await browser.newContext({ baseURL });
  const person = await context.newPage();
  try {
    await person.goto(`${link.pathname}${link.search}`);
    await expect(person.getByRole('heading', { name: 'Welcome, Nina' })).toBeVisible();
    await expect(person.getByRole('heading', { name: `Welcome to ${location}` })).toBeVisible();
    await expect(person).toHaveURL(/\/enrollment$/);
    expect(await person.evaluate(() => (window as unknown as { enrolPwned?: number }).enrolPwned)).toBeUndefined();
    await person.getByRole('button', { name: 'Continue' }).click();

    await person.getByLabel('New password').fill(password);
    await expect(person.getByRole('list', { name: 'Password requirements' }).getByText(/— met$/)).toHaveCount(5);
    await person.getByLabel('Repeat the password').fill(password);
    await person.getByRole('button', { name: 'Set password' }).click();

    await expect(person.getByRole('heading', { name: 'Add your first VPN device' })).toBeVisible();
    await expect(person.getByRole('button', { name: 'Skip this step' })).toHaveCount(0);
    await person.getByLabel('Device name').fill('laptop');
    await person.getByRole('button', { name: 'Create device' }).click();
    const config = person.getByRole('region', { name: location });
    await expect(config.getByRole('img', { name: new RegExp(`QR code.*${location}`) })).toBeVisible();
    await expect(config.getByText(/PrivateKey = [A-Za-z0-9+/]{43}=/)).toBeVisible();
    await person.getByRole('button', { name: 'Finish' }).click();
    await expect(person.getByRole('heading', { name: 'You are all set' })).toBeVisible();

    // The link is spent: opening it again shows the one clear page.
    await person.goto(`${link.pathname}${link.search}`);
    await expect(person.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();

    await signIn(person, username, password);
    await expect(person).toHaveURL(new RegExp(`/users/${username}$`));
    await expect(person.getByText('laptop', { exact: true }).first()).toBeVisible();
  } finally {
    await context.close();
    // Leave the enrollment settings as the next specs expect them (defaults).
    const restored = await page.context().request.patch('/api/v1/settings', {
      data: { enrollment_vpn_step_optional: true, enrollment_welcome_message: '' },
    });
    expect(restored.status()).toBe(200);
  }
});

test('admin issues a desktop activation token; a client redeems it with its own public key and the device appears', async ({
  page,
  playwright,
  baseURL,
}) => {
  const username = `desk${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const status = await page.evaluate(async (username) => {
    const res = await fetch('/api/v1/user', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, first_name: 'Desk', last_name: 'Top', email: `${username}@example.com`, password: 'Desk-Top-1!' }),
    });
    return res.status;
  }, username);
  expect(status).toBe(201);

  await page.goto(`/users?search=${username}`);
  await page.getByRole('button', { name: `Actions for ${username}` }).click();
  await page.getByRole('menuitem', { name: 'Activate a desktop client' }).click();
  const dialog = page.getByRole('dialog', { name: `Desktop activation for ${username}` });
  await expect(dialog.getByRole('img', { name: 'QR code with the URL and token' })).toBeVisible();
  const token = (await dialog.locator('pre').nth(1).textContent()) ?? '';
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole('button', { name: 'I have saved it' }).click();

  // A client without any session: only the token and the public key it made.
  const client = await playwright.request.newContext({ baseURL });
  try {
    const res = await client.post('/api/v1/enrollment/client/desktop', {
      data: { token, name: 'workstation', wireguard_pubkey: randomKey() },
      timeout: 10_000,
    });
    expect(res.status(), await res.text()).toBe(201);
    const again = await client.post('/api/v1/enrollment/client/desktop', {
      data: { token, name: 'workstation-2', wireguard_pubkey: randomKey() },
    });
    expect(again.status()).toBeGreaterThanOrEqual(400);
  } finally {
    await client.dispose();
  }
  await page.goto(`/users/${username}`);
  await expect(page.getByText('workstation', { exact: true }).first()).toBeVisible();
});
