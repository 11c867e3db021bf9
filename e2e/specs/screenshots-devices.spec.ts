import { expect, type Page, test } from '@playwright/test';
import { signIn } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { randomKey, uniqueSubnet } from '../support/locations';

// Review aid, not a check: `SCREENSHOTS=1 pnpm --filter @palisade/e2e test screenshots-devices`.
test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to capture the location and device screens');

const shot = (name: string) => ({ path: `test-results/screens/${name}.png`, fullPage: true });

async function seed(page: Page) {
  const a = uniqueSubnet();
  const b = uniqueSubnet();
  return page.evaluate(
    async ({ a, b, keys }) => {
      const post = (url: string, body: unknown) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
      await post('/api/v1/group', { name: 'engineering' });
      const hq = await post('/api/v1/network', {
        name: 'Headquarters',
        address: [a.gateway],
        endpoint: 'vpn.example.com',
        port: 51820,
        dns: ['1.1.1.1'],
        allowed_ips: ['10.0.0.0/8'],
        allowed_groups: ['engineering'],
      });
      await post('/api/v1/network', {
        name: 'Seoul office',
        address: [b.gateway],
        endpoint: 'seoul.example.com',
        port: 51821,
        mfa_enabled: true,
      });
      await post(`/api/v1/device/admin`, { name: 'MacBook Pro', wireguard_pubkey: keys[0] });
      await post(`/api/v1/device/admin`, { name: 'Pixel 9', wireguard_pubkey: keys[1] });
      for (const [i, name] of ['print-server', 'nas-01', 'door-controller'].entries())
        await post('/api/v1/device/network', {
          name,
          location_id: hq.id,
          wireguard_pubkey: keys[i + 2],
          description: i ? 'Rack 2' : 'Office printer',
        });
      return hq.id as number;
    },
    { a, b, keys: Array.from({ length: 5 }, randomKey) },
  );
}

test('capture the location and device screens', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const hq = await seed(page);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/locations');
    await expect(page.getByRole('link', { name: 'Headquarters' })).toBeVisible();
    await page.screenshot(shot(`locations-${scheme}`));
    await page.goto(`/locations/${hq}`);
    await expect(page.getByLabel('Location name')).toHaveValue('Headquarters');
    await page.screenshot(shot(`location-edit-${scheme}`));
    await page.goto('/locations/new');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.screenshot(shot(`wizard-choose-${scheme}`));
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Create location' }).click();
    await page.screenshot(shot(`wizard-manual-errors-${scheme}`));
    await page.goto('/network-devices');
    await expect(page.getByText('print-server')).toBeVisible();
    await page.screenshot(shot(`network-devices-${scheme}`));
    await page.getByRole('button', { name: '+ Add network device' }).click();
    await page.getByLabel('Location').selectOption({ label: 'Headquarters' });
    await expect(page.getByText('Address is available')).toBeVisible();
    await page.screenshot(shot(`network-device-add-${scheme}`));
    await page.keyboard.press('Escape');
    await page.goto('/users/admin');
    await expect(page.getByText('MacBook Pro')).toBeVisible();
    await page.screenshot(shot(`profile-devices-${scheme}`));
    await page.getByRole('button', { name: 'Actions for MacBook Pro' }).click();
    await page.getByRole('menuitem', { name: 'Show config' }).click();
    await expect(page.getByText('Template, not a working configuration')).toBeVisible();
    await page.screenshot({ path: `test-results/screens/device-config-dialog-${scheme}.png` });
    await page.keyboard.press('Escape');
    await page.goto('/users/admin/add-device');
    await page.getByLabel('Device name').fill(`Laptop ${scheme}`);
    await page.getByRole('button', { name: 'Create device' }).click();
    await expect(page.getByText('The private key is shown only now.', { exact: false })).toBeVisible();
    await page.screenshot(shot(`add-device-configs-${scheme}`));
    await page.getByRole('button', { name: 'Finish' }).click();
    await expect(page).not.toHaveURL(/\/add-device$/);
    await page.goto('/settings');
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Enterprise features' }).click();
    await expect(page.getByRole('form', { name: 'Enterprise features' })).toBeVisible();
    await page.screenshot(shot(`settings-enterprise-${scheme}`));
  }

  await page.emulateMedia({ colorScheme: 'light' });
  const key = () => Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))).toString('base64');
  const c = uniqueSubnet();
  const conf = `[Interface]\nPrivateKey = ${key()}\nAddress = ${c.gateway}\n\n[Peer]\nPublicKey = ${key()}\nAllowedIPs = ${c.prefix}.7/32\n\n[Peer]\nPublicKey = ${key()}\nAllowedIPs = ${c.prefix}.8/32\n`;
  await page.goto('/locations/new');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('radio', { name: /Import/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Location name').fill('Legacy DC');
  await page.getByLabel('Gateway endpoint').fill('legacy.example.com');
  await page
    .getByLabel('WireGuard server config file')
    .setInputFiles({ name: 'wg0.conf', mimeType: 'text/plain', buffer: Buffer.from(conf) });
  await page.screenshot(shot('wizard-import'));
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('button', { name: 'Save devices' }).click();
  await page.screenshot(shot('wizard-map-errors'));
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [name, path] of [
    ['locations-mobile', '/locations'],
    ['network-devices-mobile', '/network-devices'],
    ['profile-devices-mobile', '/users/admin'],
    ['location-edit-mobile', `/locations/${hq}`],
  ] as const) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await page.screenshot(shot(name));
  }
  await page.goto('/users/admin/add-device');
  await page.getByLabel('Device name').fill('Phone');
  await page.screenshot(shot('add-device-mobile'));
  await page.getByRole('button', { name: 'Create device' }).click();
  await expect(page.getByText('The private key is shown only now.', { exact: false })).toBeVisible();
  await page.screenshot(shot('add-device-configs-mobile'));
});
