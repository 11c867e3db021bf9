import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { startSmtpServer } from '../support/smtp-server';

/** Creates a user through the API from the signed-in admin page. */
async function createUser(page: Page, username: string, password: string) {
  const res = await page.context().request.post('/api/v1/user', {
    data: { username, first_name: 'Ema', last_name: 'Mail', email: `${username}@example.com`, password },
  });
  expect(res.status()).toBe(201);
}

async function clearSmtp(page: Page) {
  await page.context().request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  const res = await page.context().request.patch('/api/v1/settings', {
    data: { smtp_server: '', smtp_user: '', smtp_password: '', smtp_sender: '', smtp_encryption: 'starttls' },
  });
  expect(res.status()).toBe(200);
}

test('a user turns on email codes with a mailed code, then signs in with the code mailed by the second step', async ({ page }) => {
  const smtp = await startSmtpServer();
  const username = `ema${uniqueSuffix()}`;
  const password = 'Ema-Mail-1!';
  try {
    // The admin points SMTP at the loopback server.
    await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    await navigate(page, 'Settings');
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'SMTP', exact: true }).click();
    const form = page.getByRole('form', { name: 'SMTP' });
    await form.getByLabel('Server address').fill('127.0.0.1');
    await form.getByLabel('Port').fill(String(smtp.port));
    await form.getByLabel('Encryption').selectOption('none');
    await form.getByLabel('Sender address').fill('vpn@example.com');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await createUser(page, username, password);
    await signOut(page);

    // The user turns email codes on from the profile with the code of the first mail.
    await signIn(page, username, password);
    await page.goto(`/users/${username}`);
    const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Two-factor authentication' }) });
    await card.getByRole('button', { name: 'Enable: Code sent by email' }).click();
    const setup = page.getByRole('dialog', { name: 'Set up email codes' });
    const setupCode = await smtp.codeOfMail(1);
    expect(smtp.received[0]?.to).toEqual([`${username}@example.com`]);
    await setup.getByLabel('Code from the email').fill(setupCode);
    const recovery = page.getByRole('dialog', { name: 'Recovery codes' });
    await expect(recovery.getByRole('listitem')).toHaveCount(10);
    await recovery.getByRole('button', { name: 'I have saved them' }).click();
    await expect(card.getByRole('button', { name: 'Disable: Code sent by email' })).toBeVisible();
    await signOut(page);

    // The second step mails a code as it opens; a wrong code is refused, the mailed one signs in.
    await page.getByLabel('Username or email').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
    await expect(page.getByText('We sent a 6-digit code to your email address.', { exact: false })).toBeVisible();
    await expect(page.getByRole('button', { name: /Send a new code in \d+ seconds?/ })).toBeDisabled();
    const signInCode = await smtp.codeOfMail(2);
    expect(smtp.received[1]?.to).toEqual([`${username}@example.com`]);
    const field = page.getByLabel('Code sent by email');
    await field.fill(signInCode === '000000' ? '111111' : '000000');
    await expect(page.getByRole('alert')).toHaveText('Code is invalid');
    await field.fill(signInCode);
    await expect(page).not.toHaveURL(/\/login|\/auth\/redirect/);
    await page.goto(`/users/${username}`);
    await expect(card.getByText('10 recovery codes left')).toBeVisible();
    await signOut(page);
  } finally {
    await clearSmtp(page);
    await smtp.close();
  }
});
