import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { uniqueSubnet } from '../support/locations';

/** Back to the defaults (branding and the webhooks module), from the page's own session or a new one. */
async function restoreDefaults(page: Page) {
  const request = page.context().request;
  await request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  expect((await request.put('/api/v1/settings/1')).status()).toBe(200);
  expect((await request.patch('/api/v1/settings', { data: { webhooks_enabled: true, default_network_view: 'grid' } })).status()).toBe(200);
}

/** A PNG drawn by the browser itself: `width`×`height`, one colour. */
async function pngOf(page: Page, width: number, height: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    ({ width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.fillStyle = '#c0392b';
      context.fillRect(0, 0, width, height);
      return canvas.toDataURL('image/png').split(',')[1] ?? '';
    },
    { width, height },
  );
  return Buffer.from(base64, 'base64');
}

test('a module switched off leaves the navigation without a reload', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    await navigate(page, 'Settings');
    // A mark on the window: a page load would remove it.
    await page.evaluate(() => Object.assign(window, { brandingMark: true }));
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Webhooks', exact: true })).toBeVisible();
    const form = page.getByRole('form', { name: 'Global' });
    await form.getByRole('checkbox', { name: 'Webhooks' }).uncheck();
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Webhooks', exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { brandingMark?: boolean }).brandingMark)).toBe(true);
    // Its screen says why, and its API answers 404 module.disabled.
    await page.goto('/webhooks');
    await expect(page.getByRole('heading', { name: 'Module disabled' })).toBeVisible();
    const api = await page.evaluate(async () => {
      const res = await fetch('/api/v1/webhook');
      return { status: res.status, code: ((await res.json()) as { code?: string }).code };
    });
    expect(api).toEqual({ status: 404, code: 'module.disabled' });
  } finally {
    await restoreDefaults(page);
  }
});

test('an uploaded logo shows in the navigation at once and on the login page; restoring the defaults removes it', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    await navigate(page, 'Settings');
    await page.evaluate(() => Object.assign(window, { brandingMark: true }));
    const form = page.getByRole('form', { name: 'Global' });

    // Too big for the login logo (250×100 px): refused with the limit, nothing changes.
    await form
      .getByLabel('Upload a login page logo')
      .setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: await pngOf(page, 300, 80) });
    await expect(page.getByText(/the login page logo may be at most 250×100 px/)).toBeVisible();
    await expect(form.getByLabel('Login page logo URL')).toHaveValue('');

    await form
      .getByLabel('Upload a login page logo')
      .setInputFiles({ name: 'login.png', mimeType: 'image/png', buffer: await pngOf(page, 200, 80) });
    await expect(page.getByText('Logo uploaded')).toBeVisible();
    await expect(form.getByLabel('Login page logo URL')).toHaveValue(/^\/api\/v1\/branding\/logo\/main\/[0-9a-f]{16}\.png$/);

    await form
      .getByLabel('Upload a navigation logo')
      .setInputFiles({ name: 'nav.png', mimeType: 'image/png', buffer: await pngOf(page, 64, 64) });
    await expect(form.getByLabel('Navigation logo URL')).toHaveValue(/^\/api\/v1\/branding\/logo\/nav\/[0-9a-f]{16}\.png$/);
    // The top bar's logo follows without a reload, and the image loads.
    const navLogo = page.locator('.topbar__brand img');
    await expect(navLogo).toHaveAttribute('src', /\/api\/v1\/branding\/logo\/nav\//);
    await expect.poll(() => navLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    expect(await page.evaluate(() => (window as unknown as { brandingMark?: boolean }).brandingMark)).toBe(true);

    await signOut(page);
    const loginLogo = page.getByRole('img', { name: 'Palisade' });
    await expect(loginLogo).toHaveAttribute('src', /\/api\/v1\/branding\/logo\/main\/[0-9a-f]{16}\.png$/);
    await expect.poll(() => loginLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(200);

    await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    await navigate(page, 'Settings');
    const named = page.getByRole('form', { name: 'Global' });
    await named.getByLabel('Instance name').fill('Brand Co');
    await named.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page).toHaveTitle('Settings · Brand Co');
    await page.evaluate(() => Object.assign(window, { brandingMark: true }));
    await page.getByRole('button', { name: 'Restore default branding' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Restore the default branding?' });
    await dialog.getByRole('button', { name: 'Restore default branding' }).click();
    await expect(page.getByText('Default branding restored')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Global' }).getByLabel('Login page logo URL')).toHaveValue('');
    await expect(page.locator('.topbar__brand img')).toHaveCount(0);
    // The title follows the restored name in the same page.
    await expect(page).toHaveTitle('Settings · Palisade');
    expect(await page.evaluate(() => (window as unknown as { brandingMark?: boolean }).brandingMark)).toBe(true);
  } finally {
    await restoreDefaults(page);
  }
  await page.context().clearCookies();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('img[src*="/api/v1/branding/"]')).toHaveCount(0);
});

test('the overview opens in the default network view chosen in Settings › Global', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const name = `view-${uniqueSuffix()}`;
  const created = await page.evaluate(
    async ({ name, gateway }) =>
      (
        await fetch('/api/v1/network', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, address: [gateway], endpoint: 'view.example.com', port: 51820 }),
        })
      ).status,
    { name, gateway: uniqueSubnet().gateway },
  );
  expect(created).toBe(201);
  try {
    await navigate(page, 'Settings');
    const form = page.getByRole('form', { name: 'Global' });
    await form.getByLabel('Initial view of the overview').selectOption('list');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    await navigate(page, 'Overview');
    await expect(page).toHaveURL(/\/overview$/);
    const views = page.getByRole('group', { name: 'View' });
    await expect(views.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('article', { name })).toHaveCount(0);
    // Grid chosen on the page wins over the default, and stays in the address.
    await views.getByRole('button', { name: 'Grid' }).click();
    await expect(page).toHaveURL(/view=grid/);
    await expect(page.getByRole('article', { name })).toBeVisible();
  } finally {
    await restoreDefaults(page);
  }
});
