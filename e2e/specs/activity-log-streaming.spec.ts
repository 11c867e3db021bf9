import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi } from '../support/locations';

/** A Vector-like http_server on loopback, in the test process: answers 200 and keeps each batch. */
async function startReceiver(): Promise<{ server: Server; url: string; batches: { headers: IncomingHttpHeaders; body: string }[] }> {
  const batches: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      batches.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, batches };
}

/** The egress allow-list, set from a separate API session. */
async function setAllowList(page: Page, cidrs: string[]) {
  await page.context().request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  expect((await page.context().request.patch('/api/v1/settings', { data: { egress_allow_cidrs: cidrs } })).status()).toBe(200);
}

const settingsTab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name, exact: true });

test('an admin streams the activity log to a Vector destination and sees its state; edit keeps the password, delete confirms', async ({
  page,
}) => {
  const receiver = await startReceiver();
  const name = `vector-${uniqueSuffix()}`;
  const username = `stream${uniqueSuffix()}`;
  await setAllowList(page, ['127.0.0.0/8']);
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    await navigate(page, 'Settings');
    await settingsTab(page, 'Activity log streaming').click();
    const tab = page.getByRole('region', { name: /Activity log streaming/ });
    await expect(tab.getByText('Enterprise', { exact: true })).toBeVisible();
    await expect(page.getByText('Not available in this release.')).toHaveCount(0);

    await tab.getByRole('button', { name: 'Add destination' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add destination' });
    await dialog.getByLabel('Kind').selectOption('vector_http');
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByLabel('Username').fill('vector');
    await dialog.getByLabel(/^Password/).fill('Vector-Pass1!');
    await dialog.getByLabel(/CA certificate/).fill('not a certificate');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Paste a PEM certificate (-----BEGIN CERTIFICATE-----)')).toBeVisible();
    await dialog.getByLabel(/CA certificate/).fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Destination added.')).toBeVisible();
    const row = tab.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Vector (HTTP)');

    // A new event reaches the receiver with basic auth; the row's state follows (refreshed while open).
    await createUserViaApi(page, username, 'Stream-Pass1!x');
    await expect.poll(() => receiver.batches.some((b) => b.body.includes(`"${username}"`)), { timeout: 20_000 }).toBe(true);
    const batch = receiver.batches.find((b) => b.body.includes(`"${username}"`));
    expect(batch?.headers.authorization).toBe(`Basic ${Buffer.from('vector:Vector-Pass1!').toString('base64')}`);
    await expect(row.getByRole('cell').nth(3)).not.toHaveText('Never', { timeout: 15_000 });

    // Edit: the password is not shown and an empty one keeps it.
    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit destination' });
    await expect(edit.getByLabel(/^Password/)).toHaveValue('');
    await expect(edit.getByText('The stored password is not shown. Leave empty to keep it.')).toBeVisible();
    await edit.getByLabel('Name', { exact: true }).fill(`${name}-renamed`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Destination saved.')).toBeVisible();
    const renamed = tab.getByRole('row', { name: new RegExp(`${name}-renamed`) });
    await expect(renamed).toBeVisible();

    const before = receiver.batches.length;
    await createUserViaApi(page, `${username}b`, 'Stream-Pass1!x');
    await expect.poll(() => receiver.batches.slice(before).some((b) => b.body.includes(`"${username}b"`)), { timeout: 20_000 }).toBe(true);
    expect(receiver.batches.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('vector:Vector-Pass1!').toString('base64')}`);

    await renamed.getByRole('button', { name: `Actions for ${name}-renamed` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('alertdialog', { name: `Delete destination ${name}-renamed` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText(`Destination ${name}-renamed deleted.`)).toBeVisible();
    await expect(renamed).toHaveCount(0);
  } finally {
    receiver.server.close();
    await setAllowList(page, []);
  }
});
