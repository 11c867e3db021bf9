import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { navigate, signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi, uniqueSubnet } from '../support/locations';

test('an admin creates a location in the wizard; a user adds a device and downloads its config', async ({ page }) => {
  const suffix = uniqueSuffix();
  const location = `office-${suffix}`;
  const username = `dev${suffix}`;
  const password = 'Dev-Pass1!x';
  const device = `laptop-${suffix}`;
  const subnet = uniqueSubnet();

  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUserViaApi(page, username, password);

  // Locations is in the admin navigation; the wizard starts from the list (or its empty state).
  await navigate(page, 'Locations');
  await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: /^(\+ Add location|Set up a location)$/ }).click();

  await expect(page.getByRole('heading', { name: 'Welcome to the location wizard' })).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('radio', { name: /Manual configuration/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  // The configuration step goes back to the choice of setup.
  const form = page.getByRole('form', { name: 'Location settings' });
  await form.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'How do you want to set up the location?' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  // The ACL switch says what it does: gateways filter with the deployed rules.
  await expect(form.getByText(/Gateways filter the traffic of VPN clients/)).toBeVisible();

  // Client-side validation (contracts schema) before anything is sent.
  await form.getByRole('button', { name: 'Create location' }).click();
  await expect(form.getByText('Field required').first()).toBeVisible();

  await form.getByLabel('Location name').fill(location);
  const addresses = form.getByLabel('Gateway addresses');
  await addresses.fill('10.1.2');
  await addresses.press('Enter');
  await form.getByLabel('Gateway endpoint').fill('vpn.example.com');
  await form.getByRole('button', { name: 'Create location' }).click();
  await expect(form.getByText('Enter a valid address with netmask')).toBeVisible();
  await form.getByRole('button', { name: 'Remove 10.1.2' }).click();
  await addresses.fill(subnet.gateway);
  await addresses.press('Enter');
  await form.getByRole('button', { name: 'Create location' }).click();

  await expect(page.getByRole('heading', { name: 'Location ready' })).toBeVisible();
  await expect(page.getByText(`Location ${location} has been created.`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Connect its gateway' })).toHaveAttribute('href', /\/locations\/\d+\/gateway$/);
  await page.getByRole('button', { name: 'Go to locations' }).click();
  const row = page.getByRole('row', { name: new RegExp(location) });
  await expect(row).toContainText(subnet.gateway);
  await expect(row).toContainText('vpn.example.com:51820');
  await expect(row).toContainText('All users');
  await expect(row).toContainText('Not required');
  await signOut(page);

  // The user adds a device from their profile; keys are generated in the browser.
  await signIn(page, username, password);
  await page.getByRole('link', { name: '+ Add device' }).click();
  await expect(page.getByRole('heading', { name: 'Add device', level: 1 })).toBeVisible();
  await page.getByLabel('Device name').fill(device);
  await expect(page.getByRole('radio', { name: /Generate keys in the browser/ })).toBeChecked();
  const created = page.waitForResponse((r) => r.url().includes(`/api/v1/device/${username}`) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Create device' }).click();
  const request = (await created).request();
  await expect(page.getByText('The private key is shown only now.', { exact: false })).toBeVisible();

  const section = page.getByRole('region', { name: location });
  await expect(section.getByRole('img', { name: `QR code of the ${location} config` })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download config' }).click();
  const download = await downloading;
  // wg-quick takes the interface name from the file: at most 15 of [a-zA-Z0-9_=+.-], then .conf.
  expect(download.suggestedFilename()).toMatch(/^laptop-off/);
  expect(download.suggestedFilename()).toMatch(/^[a-zA-Z0-9_=+.-]{1,15}\.conf$/);
  const text = await readFile((await download.path()) as string, 'utf8');
  expect(text).toContain('Address = ');
  expect(text).toContain(`Address = ${subnet.prefix}.`);
  expect(text).not.toContain('YOUR_PRIVATE_KEY');
  const privateKey = /^PrivateKey = (\S+)$/m.exec(text)?.[1];
  expect(privateKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  // The private key never left the browser: not in the request, not in what the server stores.
  expect(request.postData() ?? '').not.toContain(privateKey as string);
  const stored = await page.evaluate(async (u) => (await fetch(`/api/v1/device/user/${u}`)).text(), username);
  expect(stored).not.toContain(privateKey as string);

  // Leaving through the navigation asks first: the private key exists only on this screen.
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await navigate(page, 'My profile');
  await expect.poll(() => asked).toEqual([expect.stringContaining('The private key is shown only here')]);
  await expect(page.getByText('The private key is shown only now.', { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/add-device$/);

  // "Finish" is the explicit way out and does not ask.
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  // Back on the profile the device is listed with its location and IP.
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).not.toHaveURL(/\/add-device$/);
  expect(asked).toHaveLength(1);
  const item = page.getByRole('listitem', { name: device });
  await expect(item).toContainText(location);
  await expect(item).toContainText(`${subnet.prefix}.`);
  await signOut(page);
});
