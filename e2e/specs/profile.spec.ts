import { expect, type Page, test } from '@playwright/test';
import { signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

/** Creates a user through the API from the signed-in admin page. */
async function createUser(page: Page, username: string, password: string) {
  const status = await page.evaluate(
    async ({ username, password }) =>
      (
        await fetch('/api/v1/user', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, first_name: 'Carol', last_name: 'Profile', email: `${username}@example.com`, password }),
        })
      ).status,
    { username, password },
  );
  expect(status).toBe(201);
}

test('changing an email asks for confirmation first; a user changes their own password', async ({ page }) => {
  const username = `carol${uniqueSuffix()}`;
  const password = 'Carol-Pass1!';
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUser(page, username, password);

  await page.goto(`/users/${username}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Email').fill(`${username}.new@example.com`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Confirm changes' });
  await expect(confirm).toContainText(`You are changing the email address to ${username}.new@example.com`);
  await confirm.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  await expect(page.getByText(`${username}.new@example.com`)).toBeVisible();
  await signOut(page);

  await signIn(page, username, password);
  await expect(page.getByRole('button', { name: 'Set password' })).toHaveCount(0);
  // Status and groups are admin-only controls: hidden for the user themselves.
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Account active')).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel' }).click();

  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('New password', { exact: true }).fill('Carol-Pass2!');
  await form.getByLabel('Repeat new password').fill('Carol-Pass3!');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Fields do not match')).toBeVisible();

  await form.getByLabel('Repeat new password').fill('Carol-Pass2!');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Current password').fill(password);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/profile-user.png' });
  await signOut(page);
  await signIn(page, username, 'Carol-Pass2!');
  await signOut(page);
});

test('"Edit profile" in the user list opens the form; a renamed user is followed to the new username', async ({ page }) => {
  const username = `ren${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUser(page, username, 'Rename-Pass1!');

  await page.goto(`/users?search=${username}`);
  await page.getByRole('button', { name: `Actions for ${username}` }).click();
  await page.getByRole('menuitem', { name: 'Edit profile' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${username}\\?edit=true$`));
  const form = page.getByRole('form', { name: 'Edit details' });
  await expect(form).toBeVisible();

  await form.getByLabel('Username').fill(`${username}x`);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('alertdialog', { name: 'Confirm changes' }).getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/users/${username}x$`));
  await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
  await expect(page.getByText(`${username}x`, { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Could not load this user.')).toHaveCount(0);
  // A reload lands on the same (new) address.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
});

test('a user who renames themselves stays on their own profile and session', async ({ page }) => {
  const username = `self${uniqueSuffix()}`;
  const password = 'Self-Pass1!x';
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await createUser(page, username, password);
  await signOut(page);

  await signIn(page, username, password);
  await page.goto(`/users/${username}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Username').fill(`${username}n`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('alertdialog', { name: 'Confirm changes' }).getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/users/${username}n$`));
  await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
  await expect(page.getByText('Could not load this user.')).toHaveCount(0);
});
