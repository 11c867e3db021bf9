import { once } from 'node:events';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

/**
 * A minimal SMTP server on loopback: takes mail without authentication, and refuses every login
 * with 535 (so a configured user makes sending fail with the server's own answer).
 */
async function startSmtp(): Promise<{ port: number; received: string[]; server: Server }> {
  const received: string[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 e2e.smtp ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.split(' ')[0]?.toUpperCase();
        if (verb === 'EHLO') socket.write('250-e2e.smtp\r\n250 AUTH PLAIN LOGIN\r\n');
        else if (verb === 'HELO') socket.write('250 e2e.smtp\r\n');
        else if (verb === 'AUTH') socket.write('535 5.7.8 Authentication credentials invalid\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, received, server };
}

async function restoreSmtp(page: Page) {
  await page.context().request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  const res = await page.context().request.patch('/api/v1/settings', {
    data: { smtp_server: '', smtp_user: '', smtp_password: '', smtp_sender: '', smtp_encryption: 'starttls' },
  });
  expect(res.status()).toBe(200);
}

test('an admin configures SMTP, sends a test email, and sees the server reason when it refuses', async ({ page }) => {
  const smtp = await startSmtp();
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    await navigate(page, 'Settings');
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'SMTP', exact: true }).click();
    const form = page.getByRole('form', { name: 'SMTP' });
    const card = page.getByRole('form', { name: 'Test email' });
    await expect(card.getByRole('button', { name: 'Send test email' })).toBeDisabled();

    await form.getByLabel('Server address').fill('127.0.0.1');
    await form.getByLabel('Port').fill(String(smtp.port));
    await form.getByLabel('Encryption').selectOption('none');
    await form.getByLabel('Sender address').fill('vpn@example.com');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    await card.getByLabel('Recipient').fill('ops@example.com');
    await card.getByRole('button', { name: 'Send test email' }).click();
    await expect(page.getByText('Test email sent to ops@example.com.')).toBeVisible();
    await expect.poll(() => smtp.received.length).toBe(1);
    expect(smtp.received[0]).toContain('To: ops@example.com');

    // With a login the server refuses: the toast carries its answer; the password is kept, never shown.
    await form.getByLabel('User').fill('palisade');
    await form.getByLabel(/^Password/).fill('e2e-Secret-1');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Password set')).toBeVisible();
    await expect(form.getByLabel(/^Password/)).toHaveValue('');
    await card.getByRole('button', { name: 'Send test email' }).click();
    await expect(page.getByText(/Error sending email: .*535 5\.7\.8 Authentication credentials invalid/)).toBeVisible();
    expect(smtp.received).toHaveLength(1);
  } finally {
    await restoreSmtp(page);
    smtp.server.close();
  }
});
