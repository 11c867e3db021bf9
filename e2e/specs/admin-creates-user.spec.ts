import { expect, test } from '@playwright/test';
import { signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('admin creates a user and a group; the new user sees only their own profile', async ({ page }) => {
  const suffix = uniqueSuffix();
  const username = `alice${suffix}`;
  const group = `team-${suffix}`;
  const password = 'Alice-Pass1!';
  const lastName = `Tester${suffix}`;

  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();

  // Create the user through the "Add user" dialog.
  await page.getByRole('button', { name: '+ Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('Username').fill(username);
  await expect(dialog.getByText('Username is available')).toBeVisible();
  await dialog.getByLabel('First name').fill('Alice');
  await dialog.getByLabel('Last name').fill(lastName);
  await dialog.getByLabel('Email').fill(`${username}@example.com`);
  await dialog.getByLabel(/^Password/).fill(password);
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`User ${username} created.`)).toBeVisible();
  await expect(page.getByRole('link', { name: `Alice ${lastName}` })).toBeVisible();

  // Create a group and add the user to it.
  await page.getByRole('link', { name: 'Groups' }).click();
  await page.getByRole('button', { name: '+ Add group' }).click();
  const groupDialog = page.getByRole('dialog', { name: 'Add group' });
  await groupDialog.getByLabel('Group name').fill(group);
  await groupDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Group ${group} created.`)).toBeVisible();
  const card = page.getByRole('article', { name: group });
  await card.getByRole('combobox', { name: `Add a member to ${group}` }).fill(username);
  await card.getByRole('button', { name: 'Add member' }).click();
  await expect(card.getByRole('link', { name: username })).toBeVisible();
  await expect(card.getByText('Members: 1')).toBeVisible();

  await signOut(page);

  // The new user signs in and lands on their own profile.
  await signIn(page, username, password);
  await expect(page).toHaveURL(new RegExp(`/users/${username}$`));
  await expect(page.getByRole('heading', { name: `Alice ${lastName}`, level: 1 })).toBeVisible();
  await expect(page.getByText(group)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'My profile' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Groups' })).toHaveCount(0);

  // Typing the admin URL lands on the own profile.
  await page.goto('/users');
  await expect(page).toHaveURL(new RegExp(`/users/${username}$`));
  await page.goto('/groups');
  await expect(page).toHaveURL(new RegExp(`/users/${username}$`));

  // And the data is protected, not just hidden: the API refuses the list to this session.
  const status = await page.evaluate(async () => (await fetch('/api/v1/user')).status);
  expect(status).toBe(403);
  const otherProfile = await page.evaluate(async () => (await fetch('/api/v1/user/admin')).status);
  expect(otherProfile).toBe(403);

  await signOut(page);
});
