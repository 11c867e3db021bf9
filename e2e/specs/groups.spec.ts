import { expect, test } from '@playwright/test';
import { signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('bulk-assign selected users to a group, remove a member, rename and delete the group', async ({ page }) => {
  const suffix = uniqueSuffix();
  const users = [`dan${suffix}`, `eve${suffix}`];
  const group = `ops-${suffix}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const statuses = await page.evaluate(
    async ({ users, group }) => {
      const post = (url: string, body: unknown) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
      const out = [];
      for (const u of users)
        out.push(await post('/api/v1/user', { username: u, first_name: 'Bulk', last_name: u, email: `${u}@example.com` }));
      out.push(await post('/api/v1/group', { name: group }));
      return out;
    },
    { users, group },
  );
  expect(statuses).toEqual([201, 201, 201]);

  // Search narrows the server-paged list; select both users and assign them.
  await page.goto('/users');
  await page.getByRole('searchbox').fill(suffix);
  await expect(page).toHaveURL(new RegExp(`search=${suffix}`));
  await expect(page.getByRole('row')).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Select all users on this page' }).check();
  await expect(page.getByText('Selected: 2')).toBeVisible();
  await page.getByRole('button', { name: 'Add to groups' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add selected users to groups' });
  await dialog.getByRole('checkbox', { name: group }).check();
  await dialog.getByRole('button', { name: 'Add to groups' }).click();
  await expect(page.getByText('Users added to the selected groups.')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(users[0] as string) })).toContainText(group);

  // On the Groups page: remove one member, rename, then delete after confirming.
  await page.goto('/groups');
  const card = page.getByRole('article', { name: group });
  await expect(card.getByText('Members: 2')).toBeVisible();
  // An unknown username is named at the field, not "Invalid value".
  await card.getByRole('combobox', { name: `Add a member to ${group}` }).fill(`ghost${suffix}`);
  await card.getByRole('button', { name: 'Add member' }).click();
  await expect(card.getByRole('alert')).toHaveText(`User not found: ghost${suffix}`);
  await card.getByRole('button', { name: `Remove ${users[0]} from ${group}` }).click();
  await expect(card.getByText('Members: 1')).toBeVisible();

  await card.getByRole('button', { name: `Actions for ${group}` }).click();
  await page.getByRole('menuitem', { name: 'Edit group' }).click();
  const edit = page.getByRole('dialog', { name: `Edit group ${group}` });
  await edit.getByLabel('Group name').fill(`${group}-x`);
  await edit.getByRole('button', { name: 'Save' }).click();
  const renamed = page.getByRole('article', { name: `${group}-x` });
  await expect(renamed).toBeVisible();

  await renamed.getByRole('button', { name: `Actions for ${group}-x` }).click();
  await page.getByRole('menuitem', { name: 'Delete group' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete group ${group}-x` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Group ${group}-x deleted.`)).toBeVisible();
  await expect(renamed).toHaveCount(0);
});

test('giving admin rights asks first; an admin who removes their own rights confirms and lands on their profile', async ({ page }) => {
  const suffix = uniqueSuffix();
  const username = `adm${suffix}`;
  const password = 'Adm-Pass1!x';
  const group = `admins-${suffix}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const statuses = await page.evaluate(
    async ({ username, password, group }) => {
      const post = (url: string, body: unknown) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
      return [
        await post('/api/v1/user', { username, first_name: 'Second', last_name: 'Admin', email: `${username}@example.com`, password }),
        await post('/api/v1/group', { name: group, is_admin: true }),
      ];
    },
    { username, password, group },
  );
  expect(statuses).toEqual([201, 201]);

  // Adding a member to an admin group says what it means before anything is sent.
  await page.goto('/groups');
  const card = page.getByRole('article', { name: group });
  await card.getByRole('combobox', { name: `Add a member to ${group}` }).fill(username);
  await card.getByRole('button', { name: 'Add member' }).click();
  const grant = page.getByRole('alertdialog', { name: 'Give administrator rights?' });
  await expect(grant).toContainText(`${username} will get full administrator rights`);
  await grant.getByRole('button', { name: 'Give admin rights' }).click();
  await expect(card.getByRole('link', { name: username })).toBeVisible();
  await signOut(page);

  // The new admin removes themselves: asked first, then moved to their own profile.
  await signIn(page, username, password);
  await page.goto('/groups');
  const own = page.getByRole('article', { name: group });
  await own.getByRole('button', { name: `Remove ${username} from ${group}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove your own administrator rights?' });
  await expect(confirm).toContainText('the console takes you to your profile');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(own.getByRole('link', { name: username })).toBeVisible();

  await own.getByRole('button', { name: `Remove ${username} from ${group}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Remove your own administrator rights?' })
    .getByRole('button', { name: 'Remove my admin rights' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/users/${username}$`));
  await expect(page.getByText('You are no longer an administrator.')).toBeVisible();
  await expect(page.getByText('Could not load groups.')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Details' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Groups', exact: true })).toHaveCount(0);
});
