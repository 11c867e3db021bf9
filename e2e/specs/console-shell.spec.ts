import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { createUserViaApi } from '../support/locations';

/** Puts the global settings back whatever a test did, from a separate API session. */
async function restoreSettings(page: Page, changes: Record<string, unknown>) {
  await page.context().request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  expect((await page.context().request.patch('/api/v1/settings', { data: changes })).status()).toBe(200);
}

type Box = { x: number; y: number; width: number; height: number };
const boxOf = async (locator: ReturnType<Page['locator']>): Promise<Box> => {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not rendered');
  return box;
};
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const settingsTab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name, exact: true });

test('every page is titled "<page> · <instance name>", the login page too', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Sign in · Palisade');
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await expect(page).toHaveTitle('Users · Palisade');
  await navigate(page, 'Groups');
  await expect(page).toHaveTitle('Groups · Palisade');
  await page.getByLabel('Language').selectOption('pl');
  await expect(page).toHaveTitle('Grupy · Palisade');
  await page.getByLabel('Język').selectOption('en');
  await page.goto(`/users/${ADMIN_USERNAME}`);
  await expect(page).toHaveTitle(`${ADMIN_USERNAME} · Palisade`);
});

test('settings: tabs per spec, one save model, branding shown at once', async ({ page }) => {
  const name = `Acme ${uniqueSuffix()}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    await navigate(page, 'Settings');
    const tabs = page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link');
    await expect(tabs).toHaveText([
      'SMTP',
      'Global',
      'LDAP',
      'OpenID',
      'Enterprise features',
      'Gateway notifications',
      'Activity log streaming',
    ]);
    await expect(settingsTab(page, 'Global')).toHaveAttribute('aria-current', 'page');
    // Every tab is a working form now: LDAP with its connection test, OpenID for the external provider
    // (signing in through it; Palisade's own provider is the module switch in Global).
    await settingsTab(page, 'LDAP').click();
    await expect(page.getByRole('button', { name: 'Test connection' })).toBeVisible();
    await settingsTab(page, 'OpenID').click();
    await expect(page.getByRole('form', { name: 'OpenID' })).toBeVisible();

    await settingsTab(page, 'Global').click();
    const form = page.getByRole('form', { name: 'Global' });
    await expect(form.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
    await expect(form.getByRole('checkbox', { name: 'Webhooks' })).toBeEnabled();
    await expect(form.getByRole('checkbox', { name: 'YubiKey provisioning' })).toBeEnabled();
    await expect(form.getByRole('checkbox', { name: 'OpenID Connect provider' })).toBeEnabled();
    await form.getByLabel('Instance name').fill(name);
    await expect(form.getByText('Unsaved changes')).toBeVisible();

    // Leaving a changed tab asks first; staying keeps the edit.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await settingsTab(page, 'SMTP').click();
    await expect(form.getByLabel('Instance name')).toHaveValue(name);

    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    // The confirmation does not cover the form's buttons.
    expect(overlaps(await boxOf(page.locator('.toast')), await boxOf(form.getByRole('button', { name: 'Save', exact: true })))).toBe(false);
    // No reload: the navigation and the title follow the saved name.
    await expect(page.locator('.sidebar__brand')).toHaveText(name);
    await expect(page).toHaveTitle(`Settings · ${name}`);
    await expect(form.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  } finally {
    await restoreSettings(page, { instance_name: 'Palisade' });
  }
});

test('with the WireGuard module off its navigation, screens and device sections disappear', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    await navigate(page, 'Settings');
    const form = page.getByRole('form', { name: 'Global' });
    await form.getByRole('checkbox', { name: 'WireGuard VPN' }).uncheck();
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link')).toHaveText([
      'Users',
      'Groups',
      'Webhooks',
      'Provisioners',
      'OpenID apps',
      'Enrollment',
      'Support',
      'Settings',
      'Activity log',
      'My profile',
    ]);
    await page.goto('/locations');
    await expect(page.getByRole('heading', { name: 'Module disabled' })).toBeVisible();
    await page.goto('/acl');
    await expect(page.getByRole('heading', { name: 'Module disabled' })).toBeVisible();
    await expect(page.getByText('This module is disabled by an administrator.')).toBeVisible();
    await expect(page).toHaveTitle('Module disabled · Palisade');
    await page.goto(`/users/${ADMIN_USERNAME}`);
    await expect(page.getByRole('button', { name: 'Change password' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Devices' })).toHaveCount(0);
  } finally {
    await restoreSettings(page, { wireguard_enabled: true });
  }
  await page.goto('/locations');
  await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();
});

test('a session that ends returns to login with a notice, then back to the page', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await navigate(page, 'Groups');
  await expect(page).toHaveURL(/\/groups$/);
  await page.context().clearCookies();
  await navigate(page, 'Settings');
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByRole('status')).toHaveText('Your session has ended. Sign in again.');
  await page.getByLabel('Username or email').fill(ADMIN_USERNAME);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings$/);
});

test('the login page does not log an error for the expected signed-out state', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a row menu near the bottom of the window opens upwards', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const suffix = uniqueSuffix();
  for (let i = 0; i < 4; i++) await createUserViaApi(page, `flip${i}${suffix}`, 'Flip-Pass1!x');
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.goto(`/users?search=flip`);
  const trigger = page.getByRole('button', { name: `Actions for flip3${suffix}`, exact: true });
  await trigger.scrollIntoViewIfNeeded();
  // Put the trigger at the bottom edge of the window.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const triggerBox = await trigger.boundingBox();
  expect(triggerBox).not.toBeNull();
  await trigger.click();
  const menu = page.getByRole('menu');
  await expect(menu).toHaveAttribute('data-placement', 'above');
  const menuBox = await menu.boundingBox();
  expect((menuBox?.y ?? 0) + (menuBox?.height ?? 0)).toBeLessThanOrEqual((await trigger.boundingBox())?.y ?? 0);
  await page.keyboard.press('Escape');

  const first = page.getByRole('button', { name: `Actions for flip0${suffix}`, exact: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await first.click();
  await expect(page.getByRole('menu')).toHaveAttribute('data-placement', 'below');
});

test('a dialog taller than the window keeps its header and footer in view; its body scrolls', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 520 });
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await page.getByRole('button', { name: '+ Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  const submit = dialog.getByRole('button', { name: 'Add user' });
  await expect(submit).toBeInViewport();
  await expect(dialog.getByRole('button', { name: 'Close dialog' })).toBeInViewport();
  const body = dialog.locator('.dialog__body');
  expect(await body.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(dialog.getByLabel(/^Password/)).toBeInViewport();
  await expect(submit).toBeInViewport();
});
