import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi } from '../support/locations';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback, in the test process: answers 200 and keeps what it got. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks from the receiver');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

/** Standard Webhooks: v1,base64(HMAC-SHA256(secret, "<id>.<timestamp>.<body>")), the secret after `whsec_` in base64. */
function isSignedWith(secret: string, { headers, body }: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((sig) => {
      const given = Buffer.from(sig.replace(/^v1,/, ''), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** Puts the egress allow-list back, from a separate API session. */
async function restoreAllowList(page: Page) {
  await page.context().request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  expect((await page.context().request.patch('/api/v1/settings', { data: { egress_allow_cidrs: [] } })).status()).toBe(200);
}

test('an admin allow-lists loopback, adds a webhook for "User created", and sees the signed delivery in its log', async ({ page }) => {
  const receiver = await startReceiver();
  const username = `hook${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    // Loopback is refused by the SSRF guard until the allow-list names it.
    await navigate(page, 'Settings');
    const global = page.getByRole('form', { name: 'Global' });
    await global.getByLabel('Egress allow-list').fill('127.0.0.0/8');
    await global.getByLabel('Egress allow-list').press('Enter');
    await global.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    await navigate(page, 'Webhooks');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Select at least one trigger')).toBeVisible();
    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByLabel('Description').fill(`e2e ${username}`);
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const secret = await dialog.getByLabel('Secret token').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await dialog.getByRole('checkbox', { name: 'User created' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Webhook added.')).toBeVisible();
    const row = page.getByRole('row', { name: new RegExp(receiver.url) });
    await expect(row).toContainText('User created');
    await expect(row).toContainText('Enabled');

    await createUserViaApi(page, username, 'Hook-Pass1!x');
    await expect.poll(() => receiver.received.find((r) => r.body.includes(`"${username}"`)), { timeout: 20_000 }).toBeTruthy();
    const delivery = receiver.received.find((r) => r.body.includes(`"${username}"`)) as Received;
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'user.created' });
    expect(isSignedWith(secret, delivery)).toBe(true);

    // The delivery log (refreshed while open) shows the delivered attempt and the receiver's answer.
    await row.getByRole('link', { name: receiver.url }).click();
    await expect(page.getByRole('heading', { name: 'Delivery log' })).toBeVisible();
    const attempt = page.getByRole('row').filter({ hasText: 'User created' }).first();
    await expect(attempt).toContainText('Delivered');
    await expect(attempt).toContainText('200');
    await attempt.getByText('Response (first 1 KiB)').click();
    await expect(attempt).toContainText('thanks from the receiver');

    // Send a test event, then redeliver the user event: both reach the receiver, signed, and show in the log.
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Webhook test event sent' }).first()).toContainText('Delivered');
    await attempt.getByRole('button', { name: 'Redeliver' }).click();
    await expect(page.getByText('Redelivery queued.')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'User created' })).toHaveCount(2);
    await expect.poll(() => receiver.received.length).toBe(before + 2);
    const again = receiver.received.slice(before);
    expect(again.map((r) => (JSON.parse(r.body) as { type: string }).type).sort()).toEqual(['user.created', 'webhook.test_sent']);
    // A redelivery is the same message: the same webhook-id, so receivers can drop duplicates.
    expect(again.find((r) => r.body.includes(`"${username}"`))?.headers['webhook-id']).toBe(delivery.headers['webhook-id']);
    for (const r of again) expect(isSignedWith(secret, r)).toBe(true);

    // Edit without a token keeps the secret: the next delivery is still signed with it.
    await page.getByRole('link', { name: 'All webhooks' }).click();
    await row.getByRole('button', { name: `Actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit webhook' });
    await expect(edit.getByLabel('Secret token')).toHaveValue('');
    await edit.getByRole('checkbox', { name: 'User deleted' }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Webhook saved.')).toBeVisible();
    await expect(row).toContainText('User created, User deleted');
    const deleteStatus = await page.evaluate(async (name) => (await fetch(`/api/v1/user/${name}`, { method: 'DELETE' })).status, username);
    expect(deleteStatus).toBe(204);
    const isDeletion = (r: Received) => (JSON.parse(r.body) as { type: string }).type === 'user.deleted';
    await expect.poll(() => receiver.received.some(isDeletion), { timeout: 20_000 }).toBe(true);
    const deleted = receiver.received.find(isDeletion) as Received;
    expect(isSignedWith(secret, deleted)).toBe(true);

    // Disable, then delete after confirming.
    await row.getByRole('button', { name: `Actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await expect(page.getByText('Webhook disabled.')).toBeVisible();
    await page.getByLabel('Show').selectOption('enabled');
    await expect(row).toHaveCount(0);
    await page.getByLabel('Show').selectOption('disabled');
    await row.getByRole('button', { name: `Actions for ${receiver.url}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete webhook' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Webhook deleted.')).toBeVisible();
    await expect(row).toHaveCount(0);
  } finally {
    receiver.server.close();
    await restoreAllowList(page);
  }
});

test('without the allow-list, a loopback webhook URL is refused on the URL field', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await navigate(page, 'Webhooks');
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add webhook' });
  await dialog.getByLabel('URL').fill('http://127.0.0.1:9/hook');
  await dialog.getByRole('button', { name: 'Generate' }).click();
  await dialog.getByRole('checkbox', { name: 'User deleted' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/add it to the egress allow-list/)).toBeVisible();
  await expect(dialog.getByLabel('URL')).toHaveAttribute('aria-invalid', 'true');
});
