import { expect, test } from '@playwright/test';
import { signIn, signOut, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { bodyOf, startSmtpServer } from '../support/smtp-server';

test('a user who forgot the password asks from the login page; the mailed link sets a new one; the admin can send one too', async ({
  page,
}) => {
  const smtp = await startSmtpServer();
  const username = `rita${uniqueSuffix()}`;
  const email = `${username}@example.com`;
  const newPassword = 'Rita-Reset-2!';
  const resetLinkOf = async (n: number) => {
    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(n);
    const match = /https?:\/\/[^\s"<>]+\/password-reset\?token=[A-Za-z0-9_%-]+/.exec(bodyOf(smtp.received[n - 1]?.raw ?? ''));
    if (!match) throw new Error(`no reset link in mail ${n}`);
    const url = new URL(match[0]);
    return `${url.pathname}${url.search}`;
  };
  try {
    await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    const setup = await page.evaluate(
      async ({ username, email, port }) => {
        const send = (method: string, path: string, body: unknown) =>
          fetch(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const smtp = await send('PATCH', '/api/v1/settings', {
          smtp_server: '127.0.0.1',
          smtp_port: port,
          smtp_encryption: 'none',
          smtp_sender: 'vpn@example.com',
        });
        const user = await send('POST', '/api/v1/user', {
          username,
          first_name: 'Rita',
          last_name: 'Reset',
          email,
          password: 'Rita-Old-1!',
        });
        return [smtp.status, user.status];
      },
      { username, email, port: smtp.port },
    );
    expect(setup).toEqual([200, 201]);
    await signOut(page);

    // "Forgot password?" on the login page: the answer never says whether the account exists.
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

    await page.goto(await resetLinkOf(1));
    expect(smtp.received[0]?.to).toEqual([email]);
    await expect(page.getByText(`For the account ${username}.`)).toBeVisible();
    await page.getByLabel('New password').fill(newPassword);
    await page.getByLabel('Repeat the password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();

    await signIn(page, username, newPassword);
    await expect(page).toHaveURL(new RegExp(`/users/${username}$`));
    await signOut(page);

    // The admin sends a reset from the user list, after a confirmation.
    await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    await page.goto(`/users?search=${username}`);
    await page.getByRole('button', { name: `Actions for ${username}` }).click();
    await page.getByRole('menuitem', { name: 'Send password reset' }).click();
    await page
      .getByRole('alertdialog', { name: `Send a password reset to ${username}?` })
      .getByRole('button', { name: 'Send reset link' })
      .click();
    await expect(page.getByText(`Password reset link sent to ${email}.`)).toBeVisible();
    expect(await resetLinkOf(2)).toMatch(/^\/password-reset\?token=/);
  } finally {
    await page.context().request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
    const cleared = await page.context().request.patch('/api/v1/settings', {
      data: { smtp_server: '', smtp_user: '', smtp_password: '', smtp_sender: '', smtp_encryption: 'starttls' },
    });
    expect(cleared.status()).toBe(200);
    await smtp.close();
  }
});
