import { createHash, generateKeyPairSync } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

/** A fresh ed25519 public key line and its `ssh-keygen -l` fingerprint. */
function freshSshKey(): { line: string; fingerprint: string } {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const sized = (bytes: Buffer) => {
    const out = Buffer.alloc(4 + bytes.length);
    out.writeUInt32BE(bytes.length, 0);
    bytes.copy(out, 4);
    return out;
  };
  const blob = Buffer.concat([sized(Buffer.from('ssh-ed25519')), sized(raw)]);
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { line: `ssh-ed25519 ${blob.toString('base64')} e2e@test`, fingerprint };
}

async function createUser(page: Page, username: string, password: string) {
  const status = await page.evaluate(
    async ({ username, password }) =>
      (
        await fetch('/api/v1/user', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, first_name: 'Kim', last_name: 'Keys', email: `${username}@example.com`, password }),
        })
      ).status,
    { username, password },
  );
  expect(status).toBe(201);
}

test('a user adds an SSH key in their profile and sees its fingerprint; the same key again is refused with the message', async ({
  page,
}) => {
  const username = `kim${uniqueSuffix()}`;
  const password = 'Kim-Keys-Pass1!';
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUser(page, username, password);
  await signOut(page);
  await signIn(page, username, password);

  await page.goto(`/users/${username}`);
  await expect(page.getByText('No SSH or GPG keys yet.', { exact: false })).toBeVisible();
  const key = freshSshKey();
  await page.getByRole('button', { name: 'Add key' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add authentication key' });
  await dialog.getByLabel('Name').fill('laptop');
  await dialog.getByLabel('Public key').fill(key.line);
  await dialog.getByRole('button', { name: 'Add key' }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole('list', { name: 'Authentication keys' });
  await expect(list.getByText(key.fingerprint)).toBeVisible();
  await expect(list.getByText('laptop')).toBeVisible();

  // The same key (another comment) is refused on the key field; nothing is added.
  await page.getByRole('button', { name: 'Add key' }).click();
  dialog = page.getByRole('dialog', { name: 'Add authentication key' });
  await dialog.getByLabel('Name').fill('again');
  await dialog.getByLabel('Public key').fill(key.line.replace('e2e@test', 'other'));
  await dialog.getByRole('button', { name: 'Add key' }).click();
  await expect(dialog.getByText('This key has already been added')).toBeVisible();
  await expect(dialog.getByLabel('Public key')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // Servers read the key as an authorized_keys line.
  const published = await page.evaluate(async (name) => (await fetch(`/api/v1/user/${name}/ssh_keys`)).text(), username);
  expect(published).toBe(`${key.line.replace(' e2e@test', '')} laptop\n`);
});
