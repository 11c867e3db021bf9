import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('provisioners: the setup panel gives the registration token; a station that registers with it is listed and provisions', async ({
  page,
  playwright,
  baseURL,
}) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await navigate(page, 'Provisioners');
  await expect(page.getByRole('heading', { name: 'Provisioners', level: 1 })).toBeVisible();
  await expect(page.getByText('No provisioning stations yet')).toBeVisible();

  const setup = page.locator('.card', { has: page.getByRole('heading', { name: 'Station setup' }) });
  const token = (await setup.getByTestId('station-token').textContent()) ?? '';
  expect(token).toMatch(/^palr_/);
  await expect(setup.locator('pre')).toContainText(`-e PROVISIONER_TOKEN=${token}`);
  await expect(setup.locator('pre')).toContainText(`-e PROVISIONER_URL=${baseURL}`);

  // A station: its own request context, only the tokens (docs/provisioning.md, ADR-007).
  const name = `desk-${uniqueSuffix()}`;
  const station = await playwright.request.newContext({ baseURL: baseURL ?? '' });
  const registered = await station.post('/api/v1/worker/register', { headers: { authorization: `Worker ${token}` }, data: { name } });
  expect(registered.status()).toBe(201);
  const stationAuth = { authorization: `Worker ${(await registered.json()).token}` };
  expect((await station.post('/api/v1/worker/poll', { headers: stationAuth, data: { wait_seconds: 0 } })).status()).toBe(204);

  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Available', { timeout: 15_000 });
  await page.getByLabel('Show').selectOption('unavailable');
  await expect(row).toHaveCount(0);
  await page.getByLabel('Show').selectOption('available');
  await expect(row).toBeVisible();

  // Provisioning: the dialog follows the job; the station reports a failure with its text.
  await page.getByRole('button', { name: 'Provision a YubiKey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Provision a YubiKey' });
  await dialog.getByLabel(/Username/).fill(ADMIN_USERNAME);
  await dialog.getByLabel('Station').selectOption(name);
  await dialog.getByRole('button', { name: 'Provision' }).click();
  await expect(dialog.getByText(/Provisioning in progress/)).toBeVisible();
  const task = await station.post('/api/v1/worker/poll', { headers: stationAuth, data: { wait_seconds: 0 } });
  expect(task.status()).toBe(200);
  const { id } = await task.json();
  const reported = await station.post(`/api/v1/worker/job/${id}/result`, {
    headers: stationAuth,
    data: { success: false, error: 'No card found in the station' },
  });
  expect(reported.ok()).toBe(true);
  await expect(dialog.getByText('Provisioning failed !')).toBeVisible();
  await expect(dialog.getByText('No card found in the station')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  // Delete with confirmation: the station's token stops working.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog', { name: 'Delete station' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  expect((await station.post('/api/v1/worker/poll', { headers: stationAuth, data: { wait_seconds: 0 } })).status()).toBe(401);
  await station.dispose();
});

test('the YubiKey provisioning switch hides Provisioners and closes the provisioning API until it is turned back on', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  try {
    await navigate(page, 'Settings');
    const form = page.getByRole('form', { name: 'Global' });
    await form.getByRole('checkbox', { name: 'YubiKey provisioning' }).uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Provisioners' })).toHaveCount(0);
    expect((await page.context().request.get('/api/v1/worker')).status()).toBe(404);
    await page.goto('/provisioners');
    await expect(page.getByRole('heading', { name: 'Module disabled' })).toBeVisible();
  } finally {
    expect((await page.context().request.patch('/api/v1/settings', { data: { worker_enabled: true } })).status()).toBe(200);
  }
  await page.goto('/provisioners');
  await expect(page.getByRole('heading', { name: 'Provisioners', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Provisioners' })).toBeVisible();
});
