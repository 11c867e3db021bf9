import { expect, test } from '@playwright/test';
import { signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('an API token made in the profile calls the API as its owner until it is deleted', async ({ page, playwright, baseURL }) => {
  const name = `script ${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await page.goto(`/users/${ADMIN_USERNAME}`);

  const card = page.locator('.card', { has: page.getByRole('heading', { name: 'API tokens' }) });
  await card.getByRole('button', { name: 'Add API token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByRole('dialog', { name: `API token ${name}` });
  await expect(shown).toContainText('You will not see it again');
  const token = await shown.getByLabel('Token').inputValue();
  expect(token).toMatch(/^pal_[0-9A-Za-z]{12}_[0-9A-Za-z]{46}$/);
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(card.getByText(name)).toBeVisible();
  await expect(card.getByText('never used')).toBeVisible();

  // A script: its own request context, no cookies, only the token.
  const script = await playwright.request.newContext({ baseURL: baseURL ?? '' });
  const headers = { authorization: `Bearer ${token}` };
  const me = await script.get('/api/v1/me', { headers });
  expect(me.status()).toBe(200);
  expect((await me.json()).username).toBe(ADMIN_USERNAME);

  await page.reload();
  await expect(card.getByText(/last used/)).toBeVisible();

  await card.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete API token' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(card.getByText(name)).toHaveCount(0);

  const after = await script.get('/api/v1/me', { headers });
  expect(after.status()).toBe(401);
  await script.dispose();
});
