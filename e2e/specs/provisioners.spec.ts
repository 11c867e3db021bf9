import { generateKeyPairSync } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi } from '../support/locations';

/** A fresh OpenSSH ed25519 public key line (what a station reports from `gpg --export-ssh-key`). */
function sshEd25519(): string {
  const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const withLength = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  return `ssh-ed25519 ${Buffer.concat([withLength(Buffer.from('ssh-ed25519')), withLength(raw)]).toString('base64')} card`;
}

const GPG_PUBLIC = `-----BEGIN PGP PUBLIC KEY BLOCK-----

mDMEawXwERYJKwYBBAHaRw8BAQdAiVHof/GE/VBlJ0emlti4+XZyUvG2SIIoZiFk
yaQc2r+0IkZpeHR1cmUgVXNlciA8Zml4dHVyZUBleGFtcGxlLmNvbT6IkAQTFggA
OBYhBGRev7vb/XKz+SbiBI09DhsdQ+AVBQJrBfARAhsDBQsJCAcCBhUKCQgLAgQW
AgMBAh4BAheAAAoJEI09DhsdQ+AVsCsBAKLawr1R3d+wdqlR8OC2t5htczA+p8qd
NXmwh8Zim5ZAAP9Nr3KRROzW8ZoLkZQUFVKzF7371HUZQ3xbp2h4cYYhDg==
=JNyp
-----END PGP PUBLIC KEY BLOCK-----
`;

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
    await form.getByRole('button', { name: 'Save', exact: true }).click();
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

test('a YubiKey provisioned at a station shows in the user’s profile with its keys; it can be renamed and deleted', async ({
  page,
  playwright,
  baseURL,
}) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const username = `yuki${uniqueSuffix()}`;
  await createUserViaApi(page, username, 'Yuki-Pass1!');
  const token = (await (await page.context().request.get('/api/v1/worker/token')).json()).token as string;
  const name = `desk-${uniqueSuffix()}`;
  const station = await playwright.request.newContext({ baseURL: baseURL ?? '' });
  const registered = await station.post('/api/v1/worker/register', { headers: { authorization: `Worker ${token}` }, data: { name } });
  const stationAuth = { authorization: `Worker ${(await registered.json()).token}` };
  await station.post('/api/v1/worker/poll', { headers: stationAuth, data: { wait_seconds: 0 } });

  await page.goto('/provisioners');
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Available');
  await page.getByRole('button', { name: 'Provision a YubiKey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Provision a YubiKey' });
  await dialog.getByLabel(/Username/).fill(username);
  await dialog.getByLabel('Station').selectOption(name);
  await dialog.getByRole('button', { name: 'Provision' }).click();
  await expect(dialog.getByText(/Provisioning in progress/)).toBeVisible();
  const { id } = await (await station.post('/api/v1/worker/poll', { headers: stationAuth, data: { wait_seconds: 0 } })).json();
  const serial = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const reported = await station.post(`/api/v1/worker/job/${id}/result`, {
    headers: stationAuth,
    data: { success: true, serial, ssh_key: sshEd25519(), gpg_key: GPG_PUBLIC },
  });
  expect(reported.ok()).toBe(true);
  await expect(dialog.getByText(`YubiKey provisioned for ${username}. Serial number: ${serial}.`)).toBeVisible();
  await station.dispose();

  await page.goto(`/users/${username}`);
  const card = page.locator('.card', { has: page.getByRole('heading', { name: 'YubiKey', exact: true }) });
  await expect(card).toContainText(`Serial number ${serial}`);
  await expect(card).toContainText('2 keys on the card');
  await expect(card).toContainText('645EBFBB');
  await card.getByRole('button', { name: /^Rename / }).click();
  const rename = page.getByRole('dialog', { name: 'Rename YubiKey' });
  await rename.getByLabel(/Name/).fill('Desk key');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(card).toContainText('Desk key');
  await card.getByRole('button', { name: 'Delete Desk key' }).click();
  await page.getByRole('alertdialog', { name: 'Delete YubiKey' }).getByRole('button', { name: 'Delete' }).click();
  await expect(card).toContainText('No YubiKey yet');
});
