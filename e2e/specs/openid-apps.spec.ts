import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('an admin adds an OpenID app (validation first), copies its ID, shows its secret, disables, filters and deletes it', async ({
  page,
  context,
}) => {
  const name = `Grafana ${uniqueSuffix()}`;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await navigate(page, 'OpenID apps');
  await expect(page.getByRole('heading', { name: 'OpenID apps' })).toBeVisible();

  // Spec §5: the messages show on their fields, per redirect URI row.
  await page.getByRole('button', { name: 'Add app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add app' });
  await dialog.getByRole('checkbox', { name: 'openid' }).uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Field required')).toHaveCount(2);
  await expect(dialog.getByText('Select at least one scope')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Redirect URI 1', { exact: true }).fill('http://grafana.example.com/login/generic_oauth');
  await dialog.getByRole('button', { name: 'Add redirect URI' }).click();
  await dialog.getByLabel('Redirect URI 2', { exact: true }).fill('http://localhost:3000/login/generic_oauth');
  await dialog.getByRole('checkbox', { name: 'openid' }).check();
  await dialog.getByRole('checkbox', { name: 'email' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Use https (http only for localhost, 127.0.0.1 or [::1])')).toBeVisible();
  await expect(dialog.getByLabel('Redirect URI 1', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Redirect URI 1', { exact: true }).fill('https://grafana.example.com/login/generic_oauth');
  await dialog.getByRole('button', { name: 'Save' }).click();

  // The new app's secret is shown with its client ID.
  await expect(page.getByText('App added.')).toBeVisible();
  const created = page.getByRole('dialog', { name: `Client secret of ${name}` });
  const clientId = await created.getByLabel('Client ID').inputValue();
  const secret = await created.getByLabel('Client secret').inputValue();
  expect(clientId).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
  await created.getByRole('button', { name: 'Close' }).last().click();
  await expect(created).toHaveCount(0);

  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(clientId);
  await expect(row).toContainText('openid email');
  await expect(row).toContainText('Confidential');
  await expect(row).toContainText('Enabled');
  await expect(row).not.toContainText(secret);

  await row.getByRole('button', { name: `Copy the client ID of ${name}` }).click();
  await expect(page.getByText('Copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(clientId);

  // Show secret asks first (it is recorded), then shows the same secret.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Show secret' }).click();
  await page.getByRole('alertdialog', { name: 'Show client secret' }).getByRole('button', { name: 'Show secret' }).click();
  const shown = page.getByRole('dialog', { name: `Client secret of ${name}` });
  await expect(shown.getByLabel('Client secret')).toHaveValue(secret);
  await shown.getByRole('button', { name: 'Copy secret' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shown.getByRole('button', { name: 'Close' }).last().click();

  // Disable, filter, delete.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await expect(page.getByText('App disabled.')).toBeVisible();
  await expect(row).toContainText('Disabled');
  await page.getByLabel('Show').selectOption('enabled');
  await expect(row).toHaveCount(0);
  await page.getByLabel('Show').selectOption('disabled');
  await expect(row).toHaveCount(1);
  await page.getByLabel('Search apps').fill(clientId.slice(0, 12));
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog', { name: 'Delete OpenID app' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('App deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await page.context().request.get(`/api/v1/oauth/${clientId}`)).status()).toBe(404);
});
