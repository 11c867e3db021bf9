import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { connectFakeGateway } from '../support/gateway-stats';
import { randomKey, uniqueSubnet } from '../support/locations';

async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: res.status === 204 ? null : await res.json() };
    },
    { method, url, body },
  );
}

test('a device seen by a gateway shows its connection on the profile and in Connected users', async ({ page }) => {
  const suffix = uniqueSuffix();
  const username = `dora${suffix}`;
  const password = 'Dora-Pass1!';
  const locationName = `edge-${suffix}`;
  const deviceName = `laptop-${suffix}`;
  const publicKey = randomKey();
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const user = await api(page, 'POST', '/api/v1/user', {
    username,
    first_name: 'Dora',
    last_name: 'Link',
    email: `${username}@example.com`,
    password,
  });
  expect(user.status).toBe(201);
  const location = await api<{ id: number }>(page, 'POST', '/api/v1/network', {
    name: locationName,
    address: [uniqueSubnet().gateway],
    endpoint: 'edge.example.com',
    port: 51820,
  });
  expect(location.status).toBe(201);
  const device = await api<{ device: { id: number } }>(page, 'POST', `/api/v1/device/${username}`, {
    name: deviceName,
    wireguard_pubkey: publicKey,
  });
  expect(device.status).toBe(201);
  const token = await api<{ token: string }>(page, 'GET', `/api/v1/network/${location.json.id}/token`);

  // The gateway reports a handshake 10 s ago from a public address, as a real agent's counters arrive.
  const gateway = connectFakeGateway(token.json.token);
  try {
    await gateway.report([
      { publicKey, endpoint: '198.51.100.23:40123', rxBytes: 2048, txBytes: 4096, latestHandshake: new Date(Date.now() - 10_000) },
    ]);
    await expect
      .poll(async () => (await api<{ is_active: boolean }>(page, 'GET', `/api/v1/device/${device.json.device.id}`)).json.is_active, {
        timeout: 15_000,
      })
      .toBe(true);
  } finally {
    gateway.close();
  }

  await page.goto(`/users/${username}`);
  const card = page.getByRole('listitem', { name: deviceName });
  await expect(card.getByText('Connected', { exact: true }).first()).toBeVisible();
  await expect(card.getByText('198.51.100.23')).toBeVisible();
  await expect(card.getByText(locationName, { exact: true }).first()).toBeVisible();
  await expect(card.getByText('Connected since')).toBeVisible();

  await navigate(page, 'Connected users');
  await expect(page.getByRole('heading', { name: 'Connected users', level: 1 })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(deviceName) });
  await expect(row).toContainText('Dora Link');
  await expect(row).toContainText(locationName);
  await expect(row).toContainText('198.51.100.23');
  await page.getByLabel('Search connected users').fill(deviceName);
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Search connected users').fill(`nobody-${suffix}`);
  await expect(page.getByText('No connected users match your search.')).toBeVisible();
  await signOut(page);

  // The owner sees the same on their own device card.
  await signIn(page, username, password);
  await page.goto(`/users/${username}`);
  const own = page.getByRole('listitem', { name: deviceName });
  await expect(own.getByText('198.51.100.23')).toBeVisible();
  await expect(own.getByText('Connected', { exact: true }).first()).toBeVisible();
});

test('a network device announced with a CLI token is listed as pending until removed', async ({ page }) => {
  const suffix = uniqueSuffix();
  const name = `cli-box-${suffix}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const location = await api<{ id: number }>(page, 'POST', '/api/v1/network', {
    name: `branch-${suffix}`,
    address: [uniqueSubnet().gateway],
    endpoint: 'branch.example.com',
    port: 51820,
  });
  expect(location.status).toBe(201);
  expect((await api(page, 'POST', '/api/v1/device/network/start_cli', { name, location_id: location.json.id })).status).toBe(201);

  await navigate(page, 'Network devices');
  await page.getByRole('searchbox').fill(name);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(`branch-${suffix}`);
  await expect(row).toContainText('Pending enrollment · token expires');
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove pending device' });
  await expect(confirm).toContainText('Its enrollment token stops working.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  expect((await api<unknown[]>(page, 'GET', '/api/v1/device/network/pending')).json.some((p) => JSON.stringify(p).includes(name))).toBe(
    false,
  );
});
