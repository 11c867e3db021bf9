import { expect, test } from '@playwright/test';
import { navigate, signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi, randomKey, uniqueSubnet } from '../support/locations';

test('enterprise switches hide device management and manual config from non-admins', async ({ page, playwright, baseURL }) => {
  const suffix = uniqueSuffix();
  const username = `ent${suffix}`;
  const password = 'Ent-Pass1!x';
  const subnet = uniqueSubnet();
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUserViaApi(page, username, password);
  const setup = await page.evaluate(
    async ({ username, gateway, key }) => {
      const post = (url: string, body: unknown) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
      return [
        await post('/api/v1/network', { name: `ent-${username}`, address: [gateway], endpoint: 'ent.example.com', port: 51820 }),
        await post(`/api/v1/device/${username}`, { name: `phone-${username}`, wireguard_pubkey: key }),
      ];
    },
    { username, gateway: subnet.gateway, key: randomKey() },
  );
  expect(setup).toEqual([201, 201]);

  try {
    await navigate(page, 'Settings');
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Enterprise features' }).click();
    const card = page.getByRole('form', { name: 'Enterprise features' });
    await card.getByRole('checkbox', { name: 'Disable user device management' }).check();
    await card.getByRole('checkbox', { name: 'Disable manual WireGuard config' }).check();
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await expect(card.getByRole('checkbox', { name: 'Disable manual WireGuard config' })).toBeChecked();
    const stored = await page.evaluate(async () => (await fetch('/api/v1/settings_enterprise')).json());
    expect(stored).toMatchObject({ admin_device_management: true, disable_manual_config: true });
    await signOut(page);

    await signIn(page, username, password);
    const devices = page.getByRole('region', { name: 'Devices' });
    await expect(devices.getByRole('listitem', { name: `phone-${username}` })).toBeVisible();
    await expect(devices.getByRole('link', { name: '+ Add device' })).toHaveCount(0);
    await expect(devices.getByText('Device management is limited to administrators (enterprise setting).')).toBeVisible();
    await expect(devices.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
    // Protected, not just hidden.
    const status = await page.evaluate(
      async (u) =>
        (
          await fetch(`/api/v1/device/${u}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"name":"x","wireguard_pubkey":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}',
          })
        ).status,
      username,
    );
    expect(status).toBe(403);
    await signOut(page);
  } finally {
    // Restore the global switches whatever happened, from a separate API session.
    const admin = await playwright.request.newContext({ baseURL });
    expect((await admin.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } })).status()).toBe(200);
    const off = { admin_device_management: false, disable_manual_config: false, disable_all_traffic: false };
    expect((await admin.patch('/api/v1/settings_enterprise', { data: off })).status()).toBe(200);
    await admin.dispose();
  }

  // Unlocked again: the user's controls are back.
  await signIn(page, username, password);
  await expect(page.getByRole('link', { name: '+ Add device' })).toBeVisible();
  await page.getByRole('button', { name: `Actions for phone-${username}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Show config' })).toBeVisible();
});
