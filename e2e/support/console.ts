import { expect, type Page } from '@playwright/test';

/** Signs in through the login form and waits until the console has left the login page. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login|\/auth\/redirect/);
}

export async function signOut(page: Page): Promise<void> {
  await openMenuIfCollapsed(page);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Below the desktop breakpoint the navigation sits behind a menu button. */
export async function openMenuIfCollapsed(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
}

/** A suffix that keeps names unique across runs against the same database. */
export const uniqueSuffix = () => Date.now().toString(36).slice(-5);

/** Moves through the main navigation (client-side, no page load). */
export async function navigate(page: Page, name: string): Promise<void> {
  await openMenuIfCollapsed(page);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name, exact: true }).click();
}
