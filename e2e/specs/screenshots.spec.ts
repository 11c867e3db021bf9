import { expect, test } from '@playwright/test';
import { signIn, signOut } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

// Review aid, not a check: `SCREENSHOTS=1 pnpm --filter @palisade/e2e test screenshots`.
test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to capture the main screens');

const shot = (name: string) => ({ path: `test-results/screens/${name}.png` });

test('capture the main screens', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.screenshot(shot('login'));

  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const created = await page.evaluate(async () => {
    for (let i = 0; i < 12; i++) {
      await fetch('/api/v1/user', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: `demo${i}`,
          first_name: ['Ana', 'Jin', 'Piotr', 'Mia'][i % 4],
          last_name: `Example${i}`,
          email: `demo${i}@example.com`,
        }),
      });
    }
    await fetch('/api/v1/group', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'engineering', members: ['demo1', 'demo2', 'demo3'] }),
    });
    return true;
  });
  expect(created).toBe(true);
  await page.reload();
  await expect(page.getByRole('link', { name: 'Ana Example0' })).toBeVisible();
  await page.screenshot(shot('users'));
  await page.getByRole('button', { name: 'Actions for demo1', exact: true }).click();
  await page.screenshot(shot('users-menu'));
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '+ Add user' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Add user' }).click();
  await page.screenshot(shot('add-user-errors'));
  await page.keyboard.press('Escape');

  await page.goto('/users/demo1');
  await expect(page.getByRole('heading', { name: 'Jin Example1' })).toBeVisible();
  await page.screenshot(shot('profile-admin'));
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.screenshot(shot('profile-edit'));

  await page.goto('/groups');
  await expect(page.getByRole('article', { name: 'engineering' })).toBeVisible();
  await page.screenshot(shot('groups'));

  await page.goto('/settings');
  await expect(page.getByLabel('Instance name')).toBeVisible();
  await page.screenshot(shot('settings'));

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/users');
  await expect(page.getByRole('link', { name: 'Ana Example0' })).toBeVisible();
  await page.screenshot(shot('users-dark'));
  await page.goto(`/users/${ADMIN_USERNAME}`);
  await page.screenshot(shot('profile-dark'));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/users');
  await expect(page.getByRole('link', { name: 'Ana Example0' })).toBeVisible();
  await page.screenshot(shot('users-mobile'));
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.waitForTimeout(400);
  await page.screenshot(shot('nav-mobile'));
  await page.setViewportSize({ width: 820, height: 1000 });
  await page.goto('/groups');
  await expect(page.getByRole('article', { name: 'engineering' })).toBeVisible();
  await page.screenshot(shot('groups-tablet'));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await signOut(page);
  await page.screenshot(shot('login-mobile'));
});
