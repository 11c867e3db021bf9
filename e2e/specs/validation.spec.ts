import { expect, test } from '@playwright/test';
import { signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('a validation error from the server shows under its field', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await page.getByRole('button', { name: '+ Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('Username').fill(`bob${uniqueSuffix()}`);
  await dialog.getByLabel('First name').fill('Bob');
  await dialog.getByLabel('Last name').fill('Duplicate');
  // Well-formed, so the console's own check passes; only the server knows it is taken.
  await dialog.getByLabel('Email').fill('admin@palisade.local');

  const response = page.waitForResponse((r) => r.url().endsWith('/api/v1/user') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Add user' }).click();
  expect((await response).status()).toBe(400);

  const email = dialog.getByLabel('Email');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  const errorId = await email.getAttribute('aria-describedby');
  expect(errorId).toBeTruthy();
  await expect(dialog.locator(`[id="${errorId?.split(' ')[0]}"]`)).toHaveText('Email already in use');
  await expect(dialog).toBeVisible();
});

test('client-side checks use the same rules before anything is sent', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await page.getByRole('button', { name: '+ Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  let posted = false;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/v1/user')) posted = true;
  });
  await dialog.getByLabel('Username').fill('1abc');
  await dialog.getByLabel(/^Password/).fill('short');
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('Cannot start from a number')).toBeVisible();
  await expect(dialog.getByText('Minimum length not reached (min. 8)')).toBeVisible();
  await expect(dialog.getByText('Field required').first()).toBeVisible();
  expect(posted).toBe(false);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
