import { expect, test } from '@playwright/test';
import { signIn } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('the language switch changes the UI text and <html lang> (en → pl → ko)', async ({ page }) => {
  await page.goto('/login');
  const html = page.locator('html');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(html).toHaveAttribute('lang', 'en');

  const language = page.getByRole('combobox', { name: 'Language' });
  await language.selectOption('pl');
  await expect(page.getByRole('heading', { name: 'Zaloguj się' })).toBeVisible();
  await expect(page.getByLabel('Nazwa użytkownika lub e-mail')).toBeVisible();
  await expect(html).toHaveAttribute('lang', 'pl');

  await page.getByRole('combobox', { name: 'Język' }).selectOption('ko');
  await expect(page.getByRole('heading', { name: '로그인' })).toBeVisible();
  await expect(page.getByLabel('사용자 이름 또는 이메일')).toBeVisible();
  await expect(html).toHaveAttribute('lang', 'ko');

  // A server error is shown in the chosen language too (mapped from the problem code).
  await page.getByLabel('사용자 이름 또는 이메일').fill('nobody');
  await page.getByLabel('비밀번호').fill('wrong-password');
  await page.getByRole('button', { name: '로그인' }).click();
  await expect(page.getByRole('alert')).toHaveText('사용자 이름 또는 비밀번호가 올바르지 않습니다.');

  // The choice is persisted for the session: a reload keeps Korean.
  await page.reload();
  await expect(page.getByRole('heading', { name: '로그인' })).toBeVisible();
  await page.getByRole('combobox', { name: '언어' }).selectOption('en');
  await expect(html).toHaveAttribute('lang', 'en');
});

test.describe('with a Polish browser', () => {
  test.use({ locale: 'pl-PL' });

  test('the locale is detected from navigator.languages (pl-PL → pl) and follows into the console', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Zaloguj się' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
    await page.getByLabel('Nazwa użytkownika lub e-mail').fill(ADMIN_USERNAME);
    await page.getByLabel('Hasło').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Zaloguj się' }).click();
    await expect(page.getByRole('heading', { name: 'Użytkownicy', level: 1 })).toBeVisible();
  });
});

test('login with a wrong password shows the mapped message', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(ADMIN_USERNAME);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password.');
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
});
