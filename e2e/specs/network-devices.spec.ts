import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { uniqueSubnet } from '../support/locations';

test('network devices: MFA locations are not offered, IP is prefilled and checked, config and CLI token', async ({ page, context }) => {
  const suffix = uniqueSuffix();
  const open = `dc-${suffix}`;
  const mfa = `secure-${suffix}`;
  const name = `printer-${suffix}`;
  const subnet = uniqueSubnet();
  const other = uniqueSubnet();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const ids = await page.evaluate(
    async (locations) => {
      const out = [];
      for (const body of locations) {
        const res = await fetch('/api/v1/network', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        out.push(res.status === 201 ? ((await res.json()) as { id: number }).id : -res.status);
      }
      return out;
    },
    [
      { name: open, address: [subnet.gateway], endpoint: 'dc.example.com', port: 51820 },
      { name: mfa, address: [other.gateway], endpoint: 'mfa.example.com', port: 51820, mfa_enabled: true },
    ],
  );
  expect(ids.every((id) => id > 0)).toBe(true);
  // Existing user devices already hold the first addresses of a new location; ask the API which is free.
  const free = await page.evaluate(async (id) => (await (await fetch(`/api/v1/device/network/ip/${id}`)).json()).ips[0] as string, ids[0]);

  await navigate(page, 'Network devices');
  await expect(page.getByRole('heading', { name: 'Network devices', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: '+ Add network device' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add network device' });
  const location = dialog.getByLabel('Location');
  await expect(location.locator('option', { hasText: open })).toHaveCount(1);
  await expect(location.locator('option', { hasText: mfa })).toHaveCount(0);
  // Each "Field required" goes as soon as its field is filled.
  await dialog.getByRole('button', { name: 'Add device' }).click();
  await expect(dialog.getByText('Field required')).toHaveCount(2);
  await dialog.getByLabel('Device name').fill(name);
  await expect(dialog.getByText('Field required')).toHaveCount(1);
  await location.selectOption({ label: open });
  await expect(dialog.getByText('Field required')).toHaveCount(0);
  const ip = dialog.getByLabel('Assigned IP');
  await expect(ip).toHaveValue(free);
  await expect(dialog.getByText('Address is available')).toBeVisible();
  await ip.fill(`${other.prefix}.9`);
  await expect(dialog.getByText(/outside the location's network/)).toBeVisible();
  await ip.fill(`${subnet.prefix}.200`);
  await expect(dialog.getByText('Address is available')).toBeVisible();
  await dialog.getByLabel(/^Description/).fill('Rack 3');
  await dialog.getByRole('button', { name: 'Add device' }).click();

  const created = page.getByRole('dialog', { name: `Network device ${name} created` });
  await expect(created.getByText(`Address = ${subnet.prefix}.200`, { exact: false })).toBeVisible();
  await expect(created.getByText('YOUR_PRIVATE_KEY')).toHaveCount(0);
  await created.getByRole('button', { name: 'Copy config' }).click();
  await expect(page.getByText('Copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`Address = ${subnet.prefix}.200`);
  // The private key is shown once: Escape, the backdrop and × ask before closing.
  await page.keyboard.press('Escape');
  const closing = page.getByRole('alertdialog', { name: 'Close without saving it?' });
  await expect(closing).toContainText('You will not be able to see it again');
  await closing.getByRole('button', { name: 'Keep open' }).click();
  await expect(closing).toHaveCount(0);
  await expect(created).toBeVisible();
  await created.getByRole('button', { name: 'Close dialog' }).click();
  await closing.getByRole('button', { name: 'Keep open' }).click();
  await created.getByRole('button', { name: 'I have saved it' }).click();
  await expect(created).toHaveCount(0);

  await page.getByRole('searchbox').fill(suffix);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(open);
  await expect(row).toContainText(`${subnet.prefix}.200`);
  await expect(row).toContainText('Rack 3');
  await expect(row).toContainText('admin');

  // Stored config from the server: the private key is a placeholder there.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Show config' }).click();
  const config = page.getByRole('dialog', { name: `WireGuard config of ${name}` });
  await expect(config.getByText(/replace YOUR_PRIVATE_KEY/)).toBeVisible();
  // A template: no QR code a phone could scan into a tunnel that cannot connect.
  await expect(config.getByText('Template, not a working configuration')).toBeVisible();
  await expect(config.getByRole('img')).toHaveCount(0);
  await config.getByRole('button', { name: 'Close dialog' }).click();

  // Editing: the device's own address is its current one, not "available" nor "prefilled".
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const editing = page.getByRole('dialog', { name: `Edit device ${name}` });
  await expect(editing.getByText('Current address of this device')).toBeVisible();
  await expect(editing.getByText('Address is available')).toHaveCount(0);
  await expect(editing.getByText(/Prefilled/)).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(editing).toHaveCount(0);

  // One-time CLI token.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Generate CLI token' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Generate CLI token' }).click();
  const token = page.getByRole('dialog', { name: 'CLI enrollment token' });
  await expect(token.getByText('This token is shown only once', { exact: false })).toBeVisible();
  await token.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByText('Copied to clipboard.')).toBeVisible();
  await expect(token).toContainText(`sudo palisade enroll --url ${new URL(page.url()).origin} --token `);
  await token.getByRole('button', { name: 'Close dialog' }).click();
  const closingToken = page.getByRole('alertdialog', { name: 'Close without saving it?' });
  await expect(closingToken).toContainText('You will not be able to see it again');
  await closingToken.getByRole('button', { name: 'Close anyway' }).click();
  await expect(token).toHaveCount(0);

  // Delete after confirming.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const deleting = page.getByRole('alertdialog', { name: 'Delete network device' });
  await expect(deleting).toContainText(`It can no longer connect to ${open}`);
  await expect(deleting).not.toContainText('any location');
  await deleting.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Device ${name} deleted.`)).toBeVisible();
  await expect(row).toHaveCount(0);
});
