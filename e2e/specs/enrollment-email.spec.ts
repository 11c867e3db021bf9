import { type Browser, expect, type Page, test } from '@playwright/test';
import { signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { uniqueSubnet } from '../support/locations';
import { type E2eSmtpServer, startSmtpServer } from '../support/smtp-server';

/** Issue 15 §4: the mailed links work in Chromium, and the mails come in the person's language. */

/** A message's Subject header, MIME encoded words decoded. */
function subjectOf(raw: string): string {
  const m = /^subject:(.*(?:\r?\n[ \t].*)*)/im.exec(raw);
  const value = (m?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ').trim();
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** The decoded text/plain part of a message (or its only body). */
function textOf(raw: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const part = boundary ? (raw.split(`--${boundary}`).find((p) => /content-type:\s*text\/plain/i.test(p)) ?? '') : raw;
  const [head = '', ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The `n`th received mail (1-based), waiting for it. */
async function mailNumber(smtp: E2eSmtpServer, n: number) {
  await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(n);
  const mail = smtp.received[n - 1];
  if (!mail) throw new Error(`no mail ${n}`);
  return { to: mail.to, subject: subjectOf(mail.raw), text: textOf(mail.raw) };
}

/** The enrollment link in a mail's text, as a path for the browser's base URL. */
function enrollmentPathIn(text: string): string {
  const match = /https?:\/\/[^\s"<>]+\/enrollment\?token=[A-Za-z0-9_%-]+/.exec(text);
  if (!match) throw new Error(`no enrollment link in: ${text}`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

/** The admin's console: SMTP pointed at the test server, a location, and the VPN step made mandatory. */
async function prepare(page: Page, smtp: E2eSmtpServer, location: string, welcome: string): Promise<string> {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const { statuses, instanceName } = await page.evaluate(
    async ({ port, location, gateway, welcome }) => {
      const send = (method: string, path: string, body: unknown) =>
        fetch(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const settings = await send('PATCH', '/api/v1/settings', {
        smtp_server: '127.0.0.1',
        smtp_port: port,
        smtp_encryption: 'none',
        smtp_sender: 'vpn@example.com',
        enrollment_welcome_message: welcome,
        enrollment_use_welcome_message_as_email: true,
        enrollment_welcome_email_subject: '',
        enrollment_vpn_step_optional: false,
      });
      const network = await send('POST', '/api/v1/network', {
        name: location,
        address: [gateway],
        endpoint: 'hq.example.com',
        port: 51820,
      });
      const essentials = await (await fetch('/api/v1/settings_essentials')).json();
      return { statuses: [settings.status, network.status], instanceName: essentials.instance_name as string };
    },
    { port: smtp.port, location, gateway: uniqueSubnet().gateway, welcome },
  );
  expect(statuses).toEqual([200, 201]);
  return instanceName;
}

async function createUser(page: Page, username: string, firstName: string): Promise<void> {
  const status = await page.evaluate(
    async ({ username, firstName }) => {
      const person = { username, first_name: firstName, last_name: 'New', email: `${username}@example.com` };
      const res = await fetch('/api/v1/user', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(person),
      });
      return res.status;
    },
    { username, firstName },
  );
  expect(status).toBe(201);
}

/** The person opens the mailed link in a browser of their own, completes every step and signs in. */
async function enrolThroughMailedLink(
  browser: Browser,
  baseURL: string | undefined,
  link: string,
  who: { firstName: string; username: string },
  location: string,
  welcome: string,
) {
  const password = 'Mail-Enrol1!';
  const context = await browser.newContext({ baseURL });
  const person = await context.newPage();
  try {
    await person.goto(link);
    await expect(person.getByRole('heading', { name: `Welcome, ${who.firstName}` })).toBeVisible();
    await expect(person.getByText(welcome)).toBeVisible();
    await person.getByRole('button', { name: 'Continue' }).click();

    await person.getByLabel('New password').fill(password);
    await person.getByLabel('Repeat the password').fill(password);
    await person.getByRole('button', { name: 'Set password' }).click();

    // The VPN step is mandatory: no way past it without a device.
    await expect(person.getByRole('heading', { name: 'Add your first VPN device' })).toBeVisible();
    await expect(person.getByRole('button', { name: 'Skip this step' })).toHaveCount(0);
    await person.getByLabel('Device name').fill('laptop');
    await person.getByRole('button', { name: 'Create device' }).click();
    await expect(person.getByRole('region', { name: location }).getByText(/PrivateKey = [A-Za-z0-9+/]{43}=/)).toBeVisible();
    await person.getByRole('button', { name: 'Finish' }).click();
    await expect(person.getByRole('heading', { name: 'You are all set' })).toBeVisible();
    return async () => {
      await signIn(person, who.username, password);
      await expect(person).toHaveURL(new RegExp(`/users/${who.username}$`));
      await expect(person.getByText('laptop', { exact: true }).first()).toBeVisible();
      // Signed in, the console stores its language (English here) as the language of the person's mail.
      await expect
        .poll(() => person.evaluate(async () => (await (await fetch('/api/v1/me')).json()).language), { timeout: 10_000 })
        .toBe('en');
      await context.close();
    };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/** Leaves SMTP and the enrollment settings as the next specs expect them (defaults). */
async function restore(page: Page, smtp: E2eSmtpServer): Promise<void> {
  await page.context().request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  const restored = await page.context().request.patch('/api/v1/settings', {
    data: {
      smtp_server: '',
      smtp_user: '',
      smtp_password: '',
      smtp_sender: '',
      smtp_encryption: 'starttls',
      enrollment_vpn_step_optional: true,
      enrollment_welcome_message: '',
    },
  });
  expect(restored.status()).toBe(200);
  await smtp.close();
}

test('admin starts enrollment by email; the person follows the mailed link, adds the mandatory VPN device, gets the welcome mail and signs in', async ({
  page,
  browser,
  baseURL,
}) => {
  const smtp = await startSmtpServer();
  const suffix = uniqueSuffix();
  const who = { username: `mia${suffix}`, firstName: 'Mia' };
  const location = `mail-${suffix}`;
  const welcome = `Glad to have you on board at ${location}.`;
  try {
    const instanceName = await prepare(page, smtp, location, welcome);
    await createUser(page, who.username, who.firstName);

    await page.goto(`/users?search=${who.username}`);
    await page.getByRole('button', { name: `Actions for ${who.username}` }).click();
    await page.getByRole('menuitem', { name: 'Start enrollment' }).click();
    const start = page.getByRole('dialog', { name: `Start enrollment for ${who.username}` });
    await start.getByRole('radio', { name: /Send by email/ }).check();
    await start.getByRole('button', { name: 'Start enrollment' }).click();
    await expect(page.getByText(`Enrollment link sent to ${who.username}@example.com.`)).toBeVisible();

    const invitation = await mailNumber(smtp, 1);
    expect(invitation.to).toEqual([`${who.username}@example.com`]);
    expect(invitation.subject).toBe(`${instanceName}: set up your account`);
    const signInAfterwards = await enrolThroughMailedLink(browser, baseURL, enrollmentPathIn(invitation.text), who, location, welcome);

    const welcomeMail = await mailNumber(smtp, 2);
    expect(welcomeMail.to).toEqual([`${who.username}@example.com`]);
    expect(welcomeMail.subject).toBe(`Welcome to ${instanceName}`);
    expect(welcomeMail.text).toContain(welcome);
    await signInAfterwards();
  } finally {
    await restore(page, smtp);
  }
});

test('a user whose language is Polish gets the enrollment and welcome mails in Polish though the admin console is English', async ({
  page,
  browser,
  baseURL,
}) => {
  const smtp = await startSmtpServer();
  const suffix = uniqueSuffix();
  const who = { username: `ola${suffix}`, firstName: 'Ola' };
  const location = `pl-${suffix}`;
  const welcome = `Witaj w zespole ${location}.`;
  try {
    const instanceName = await prepare(page, smtp, location, welcome);
    await createUser(page, who.username, who.firstName);
    // The admin sets the language of the person's emails in the user edit form.
    await page.goto(`/users/${who.username}?edit=true`);
    const form = page.getByRole('form', { name: 'Edit details' });
    await expect(form.getByLabel('Mail language')).toHaveValue('');
    await form.getByLabel('Mail language').selectOption('pl');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Profile saved.')).toBeVisible();
    const status = await page.evaluate(async (username) => {
      const res = await fetch(`/api/v1/user/${username}/start_enrollment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ send_email: true, locale: 'en' }),
      });
      return res.status;
    }, who.username);
    expect(status).toBe(200);

    const invitation = await mailNumber(smtp, 1);
    expect(invitation.subject).toBe(`${instanceName}: skonfiguruj swoje konto`);
    const signInAfterwards = await enrolThroughMailedLink(browser, baseURL, enrollmentPathIn(invitation.text), who, location, welcome);

    const welcomeMail = await mailNumber(smtp, 2);
    expect(welcomeMail.subject).toBe(`Witamy w ${instanceName}`);
    expect(welcomeMail.text).toContain(welcome);
    await signInAfterwards();
  } finally {
    await restore(page, smtp);
  }
});
