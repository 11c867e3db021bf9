import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type PlaywrightWorkerArgs, test } from '@playwright/test';
import { signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

/** A separate API session, so changes happen behind the console's back (no reload, no client cache). */
async function adminApi(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL });
  expect((await api.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } })).status()).toBe(200);
  return api;
}

async function createUser(api: APIRequestContext, username: string): Promise<void> {
  const response = await api.post('/api/v1/user', {
    data: { username, first_name: 'Log', last_name: 'Tester', email: `${username}@example.com`, password: 'Log-Tester-Pass1!' },
  });
  expect(response.status()).toBe(201);
}

test('an admin filters the activity log by module and sees a new event arrive in the live stream', async ({
  page,
  playwright,
  baseURL,
}) => {
  const suffix = uniqueSuffix();
  const first = `logged${suffix}`;
  const second = `live${suffix}`;
  const api = await adminApi(playwright, baseURL);
  try {
    await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    await createUser(api, first);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Activity log' }).click();
    await expect(page.getByRole('heading', { name: 'Activity log', level: 1 })).toBeVisible();
    const table = page.getByRole('table');
    // Unfiltered, the sign-ins (module Authentication) are listed too.
    await expect(table.getByRole('row').filter({ hasText: 'Signed in' }).first()).toBeVisible();

    // Filter by module "Users": the creation is there, the sign-ins are not.
    await page.getByRole('button', { name: 'Modules: Any' }).click();
    await page.getByRole('group', { name: 'Modules' }).getByLabel('Users', { exact: true }).check();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/module=/);
    const created = table.getByRole('row').filter({ hasText: first });
    await expect(created).toContainText('User created');
    await expect(table.getByRole('row').filter({ hasText: 'Signed in' })).toHaveCount(0);
    await expect(table.getByRole('cell', { name: 'Authentication', exact: true })).toHaveCount(0);

    // The filter lives in the URL: a reload shows the same view.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Modules: 1 selected' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: first })).toContainText('User created');
    await expect(table.getByRole('row').filter({ hasText: 'Signed in' })).toHaveCount(0);

    // The export downloads what the filter shows, not the whole log.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export JSON lines' }).click();
    const lines = readFileSync((await (await download).path()) ?? '', 'utf8')
      .trim()
      .split('\n');
    const exported = lines.map((line) => JSON.parse(line) as { event: string; module: string; object_name?: string });
    expect(exported.some((e) => e.event === 'user.created' && e.object_name === first)).toBe(true);
    expect(exported.every((e) => e.module === 'users')).toBe(true);

    // The row opens its details, with the JSON of the entry.
    await table.getByRole('row').filter({ hasText: first }).getByRole('button').click();
    const drawer = page.getByRole('dialog', { name: 'User created' });
    await expect(drawer.getByText('user.created')).toBeVisible();
    await expect(drawer.locator('pre')).toContainText(`"username": "${first}"`);
    await drawer.getByRole('button', { name: 'Close dialog' }).click();
    await expect(drawer).toBeHidden();

    // The live stream: a user created through the API appears without a reload.
    await page.getByRole('link', { name: 'Live' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: first })).toBeVisible();
    const loads: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) loads.push(frame.url());
    });
    await createUser(api, second);
    const arrived = table.getByRole('row').filter({ hasText: second });
    await expect(arrived).toContainText('User created', { timeout: 15_000 });
    await expect(arrived).toHaveCount(1);
    expect(loads).toEqual([]);
    // Newest first: the new entry is above the older one.
    await expect(table.locator('tbody tr').first()).toContainText(second);
  } finally {
    await api.dispose();
  }
});

test('a user without admin rights sees the activity log of their own account only', async ({ page, playwright, baseURL }) => {
  const username = `own${uniqueSuffix()}`;
  const api = await adminApi(playwright, baseURL);
  try {
    await createUser(api, username);
    await signIn(page, username, 'Log-Tester-Pass1!');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Activity log' }).click();
    const table = page.getByRole('table');
    // Their own sign-in and the creation of their account are there; the admin's sign-ins are not.
    await expect(table.getByRole('row').filter({ hasText: 'Signed in' }).filter({ hasText: username })).toHaveCount(1);
    await expect(table.getByRole('row').filter({ hasText: 'User created' }).filter({ hasText: username })).toHaveCount(1);
    await expect(table.getByRole('row').filter({ hasText: 'Signed in' })).toHaveCount(1);
    // Filtering by user is an administrator's tool.
    await expect(page.getByRole('button', { name: /^Users:/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Modules: Any' })).toBeVisible();
  } finally {
    await api.dispose();
  }
});
