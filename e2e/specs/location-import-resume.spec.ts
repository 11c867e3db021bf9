import { expect, type Page, test } from '@playwright/test';
import { signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi, openImportForm, twoPeerServerConfig, uniqueSubnet } from '../support/locations';

async function startImport(page: Page, location: string, config: string) {
  const form = await openImportForm(page);
  await form.getByLabel('Location name').fill(location);
  await form.getByLabel('Gateway endpoint').fill('resume.example.com');
  await form
    .getByLabel('WireGuard server config file')
    .setInputFiles({ name: 'wg0.conf', mimeType: 'text/plain', buffer: Buffer.from(config) });
  await form.getByRole('button', { name: 'Import' }).click();
  return form;
}

/** The table's scrolling wrapper shows all of its content (nothing hidden sideways). */
const hasNoSidewaysScroll = (page: Page) =>
  page
    .locator('.table-wrap')
    .first()
    .evaluate((el) => el.scrollWidth <= el.clientWidth + 1);

test('an import abandoned at "Map devices" waits with its location and resumes from the list', async ({ page }) => {
  test.setTimeout(90_000);
  const suffix = uniqueSuffix();
  const location = `resume-${suffix}`;
  const owner = `zzres${suffix}`;
  const subnet = uniqueSubnet();
  const config = twoPeerServerConfig(subnet);
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUserViaApi(page, owner, 'Res-Pass1!x');

  await startImport(page, location, config);
  const map = page.getByRole('form', { name: 'Map imported devices' });
  await expect(map.getByRole('button', { name: 'Back' })).toBeVisible();
  await map.getByRole('button', { name: 'Map later' }).click();
  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.getByText('2 peers wait to be mapped.', { exact: false })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(location) });
  await expect(row).toContainText('2 peers waiting to be mapped');
  await row.getByRole('link', { name: location, exact: true }).click();
  await expect(page.getByText('2 peers waiting to be mapped')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Map devices' })).toHaveAttribute('href', /\/locations\/\d+\/map$/);

  // Importing the same name again points to the unfinished location.
  const again = await startImport(page, location, config);
  await expect(again.getByText(`Location ${location} was imported already; 2 of its peers wait to be mapped.`)).toBeVisible();
  await again.getByRole('link', { name: `Resume mapping the devices of ${location}` }).click();
  await expect(page.getByRole('heading', { name: `Map imported devices of ${location}` })).toBeVisible();

  // On a phone the peers are cards: every field is reachable without sideways scrolling.
  const resumed = page.getByRole('form', { name: 'Map imported devices' });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(resumed.getByRole('combobox', { name: /^User for peer/ }).first()).toBeVisible();
  expect(await hasNoSidewaysScroll(page)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await hasNoSidewaysScroll(page)).toBe(true);

  // The same IP twice is named, then the mapping goes through.
  const names = resumed.getByRole('textbox', { name: /^Device name for peer/ });
  const ips = resumed.getByRole('textbox', { name: /^IP addresses for peer/ });
  await names.nth(0).fill(`first-${suffix}`);
  await names.nth(1).fill(`second-${suffix}`);
  await ips.nth(1).fill(`${subnet.prefix}.10`);
  const users = resumed.getByRole('combobox', { name: /^User for peer/ });
  for (const i of [0, 1]) {
    await users.nth(i).fill(owner);
    await resumed.getByRole('option', { name: `Dev ${owner} (${owner})` }).click();
  }
  await resumed.getByRole('button', { name: 'Save devices' }).click();
  await expect(resumed.getByText(`IP ${subnet.prefix}.10 is also given to peer first-${suffix} in this list`)).toBeVisible();
  await ips.nth(1).fill(`${subnet.prefix}.11`);
  await resumed.getByRole('button', { name: 'Save devices' }).click();
  await expect(page.getByText('Devices added: 2.')).toBeVisible();
  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.getByRole('row', { name: new RegExp(location) })).not.toContainText('waiting to be mapped');
});
