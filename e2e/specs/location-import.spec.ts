import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi, openImportForm, twoPeerServerConfig, uniqueSubnet } from '../support/locations';

/** Password-less users created through the API in small parallel batches. */
async function createFillerUsers(page: Page, usernames: readonly string[]): Promise<void> {
  await page.evaluate(async (names) => {
    for (let i = 0; i < names.length; i += 25) {
      await Promise.all(
        names.slice(i, i + 25).map(async (username) => {
          const res = await fetch('/api/v1/user', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, first_name: 'Filler', last_name: username, email: `${username}@example.com` }),
          });
          if (res.status !== 201) throw new Error(`create user: ${res.status} ${await res.text()}`);
        }),
      );
    }
  }, usernames);
}

test('an admin imports a WireGuard server config and maps its peers to a user', async ({ page }) => {
  test.setTimeout(90_000);
  const suffix = uniqueSuffix();
  const location = `legacy-${suffix}`;
  // More users than the largest page (200) sort before the owner, so only a server search finds it.
  const username = `zzimp${suffix}`;
  const fillers = Array.from({ length: 201 }, (_, i) => `zf${suffix}x${String(i).padStart(3, '0')}`);
  const subnet = uniqueSubnet();
  const config = twoPeerServerConfig(subnet, ['ListenPort = 51999']);

  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createFillerUsers(page, fillers);
  await createUserViaApi(page, username, 'Imp-Pass1!x');

  const form = await openImportForm(page);
  await form.getByLabel('Location name').fill(location);
  await form.getByLabel('Gateway endpoint').fill('legacy.example.com');
  const file = form.getByLabel('WireGuard server config file');

  // A broken file: the server's line-precise reason is shown.
  await file.setInputFiles({ name: 'broken.conf', mimeType: 'text/plain', buffer: Buffer.from('[Interface]\nAddress = nope\n') });
  await form.getByRole('button', { name: 'Import' }).click();
  await expect(form.getByRole('alert')).toContainText('(line 2)');

  await file.setInputFiles({ name: 'wg0.conf', mimeType: 'text/plain', buffer: Buffer.from(config) });
  await expect(form.getByText('Selected: wg0.conf')).toBeVisible();
  await form.getByRole('button', { name: 'Import' }).click();

  const map = page.getByRole('form', { name: 'Map imported devices' });
  await expect(map.getByText(`2 peers were found in the config of ${location}.`, { exact: false })).toBeVisible();
  const rows = map.getByRole('row');
  await expect(rows).toHaveCount(3);

  // Unfilled fields and bad addresses are flagged before submit.
  const ips = map.getByRole('textbox', { name: /^IP addresses for peer/ });
  await expect(ips.nth(0)).toHaveValue(`${subnet.prefix}.10`);
  await ips.nth(1).fill('192.168.77.5');
  await map.getByRole('button', { name: 'Save devices' }).click();
  await expect(map.getByText('Rows to fix: 2.', { exact: false })).toBeVisible();
  await expect(
    map.getByText("The IP address is outside the location's network.").or(map.getByText("IP is outside the location's network")),
  ).toBeVisible();
  await expect(map.getByText('Field required').first()).toBeVisible();

  await ips.nth(1).fill(`${subnet.prefix}.11`);
  const names = map.getByRole('textbox', { name: /^Device name for peer/ });
  for (const i of [0, 1]) await names.nth(i).fill(`peer${i}-${suffix}`);

  // The user picker pages through the server: it opens on a small page of a large list…
  const users = map.getByRole('combobox', { name: /^User for peer/ });
  const label = `Dev ${username} (${username})`;
  await users.nth(0).click();
  await expect(users.nth(0)).toHaveAttribute('aria-expanded', 'true');
  await expect(map.getByRole('status').filter({ hasText: /^Showing 20 of [\d,]+ users\./ })).toBeVisible();
  await expect(map.getByRole('option')).toHaveCount(20);
  // …and searches the server for what is typed (the owner sorts after more than 200 users).
  const searched = page.waitForRequest((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/v1/user' && url.searchParams.get('search') === username && Number(url.searchParams.get('per_page')) <= 50;
  });
  await users.nth(0).fill(username);
  await searched;
  await map.getByRole('option', { name: label }).click();
  await expect(users.nth(0)).toHaveValue(label);
  await expect(users.nth(0)).toHaveAttribute('aria-expanded', 'false');

  // Keyboard only: type, move with the arrows, Escape closes, Enter picks.
  await users.nth(1).focus();
  await users.nth(1).pressSequentially(`zf${suffix}x00`);
  await expect(map.getByRole('option')).toHaveCount(10);
  await users.nth(1).press('ArrowDown');
  await users.nth(1).press('ArrowDown');
  await expect(map.getByRole('option', { name: `Filler zf${suffix}x002 (zf${suffix}x002)` })).toHaveAttribute('aria-selected', 'true');
  await users.nth(1).press('Escape');
  await expect(users.nth(1)).toHaveAttribute('aria-expanded', 'false');
  await users.nth(1).fill(username.toUpperCase());
  await expect(map.getByRole('option')).toHaveCount(1);
  await expect(map.getByRole('option', { name: label })).toHaveAttribute('aria-selected', 'true');
  await users.nth(1).press('Enter');
  await expect(users.nth(1)).toHaveValue(label);
  await expect(page.getByRole('heading', { name: 'Location ready' })).toBeHidden();

  await map.getByRole('button', { name: 'Save devices' }).click();
  await expect(page.getByRole('heading', { name: 'Location ready' })).toBeVisible();
  await expect(page.getByText('Devices added: 2.')).toBeVisible();

  // The mapped peers are now that user's devices, with their imported IPs.
  await navigate(page, 'Users');
  await page.getByRole('searchbox').fill(username);
  await page.getByRole('link', { name: `Dev ${username}` }).click();
  const devices = page.getByRole('region', { name: 'Devices' });
  await expect(devices.getByRole('listitem', { name: `peer0-${suffix}` })).toContainText(`${subnet.prefix}.10`);
  await expect(devices.getByRole('listitem', { name: `peer1-${suffix}` })).toContainText(`${subnet.prefix}.11`);
  await expect(devices.getByRole('listitem', { name: `peer1-${suffix}` })).toContainText(location);
});
