import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi, randomKey, uniqueSubnet } from '../support/locations';

test('an admin imports a WireGuard server config and maps its peers to a user', async ({ page }) => {
  const suffix = uniqueSuffix();
  const location = `legacy-${suffix}`;
  const username = `imp${suffix}`;
  const subnet = uniqueSubnet();
  const config = [
    '[Interface]',
    `PrivateKey = ${randomKey()}`,
    `Address = ${subnet.gateway}`,
    'ListenPort = 51999',
    '',
    '[Peer]',
    `PublicKey = ${randomKey()}`,
    `AllowedIPs = ${subnet.prefix}.10/32`,
    '',
    '[Peer]',
    `PublicKey = ${randomKey()}`,
    `AllowedIPs = ${subnet.prefix}.11/32`,
    '',
  ].join('\n');

  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUserViaApi(page, username, 'Imp-Pass1!x');

  await navigate(page, 'Locations');
  await page.getByRole('link', { name: /^(\+ Add location|Set up a location)$/ }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('radio', { name: /Import from a WireGuard config file/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  const form = page.getByRole('form', { name: 'Import a WireGuard config' });
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
  const users = map.getByRole('combobox', { name: /^User for peer/ });
  for (const i of [0, 1]) {
    await names.nth(i).fill(`peer${i}-${suffix}`);
    await users.nth(i).selectOption({ label: `Dev ${username} (${username})` });
  }
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
