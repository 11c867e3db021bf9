import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('a reserved username says it is reserved, not taken', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await page.getByRole('button', { name: '+ Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  // `network` is a fixed API path: POST /device/network could never address this user.
  await dialog.getByLabel('Username').fill('network');
  await expect(dialog.getByText('This name is reserved')).toBeVisible();
  await expect(dialog.getByText('Username already in use')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('adding an unknown user to a group names the user that was not found', async ({ page }) => {
  const group = `crew-${uniqueSuffix()}`;
  const ghost = `ghost${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await navigate(page, 'Groups');
  await page.getByRole('button', { name: '+ Add group' }).click();
  const groupDialog = page.getByRole('dialog', { name: 'Add group' });
  await groupDialog.getByLabel('Group name').fill(group);
  await groupDialog.getByRole('button', { name: 'Save' }).click();
  const card = page.getByRole('article', { name: group });
  await card.getByRole('combobox', { name: `Add a member to ${group}` }).fill(ghost);
  await card.getByRole('button', { name: 'Add member' }).click();
  await expect(card.getByRole('alert')).toHaveText(`User not found: ${ghost}`);
});
