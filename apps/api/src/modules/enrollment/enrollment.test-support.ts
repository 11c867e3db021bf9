import type { TestApp } from '#test/helpers.js';
import { bodyOf, type TestSmtpServer } from '#test/smtp-server.js';

/** Points the instance's SMTP settings at the test server. */
export async function useSmtp(t: TestApp, admin: string, smtp: TestSmtpServer): Promise<void> {
  const res = await t.request('PATCH', '/api/v1/settings', {
    cookie: admin,
    payload: { smtp_server: '127.0.0.1', smtp_port: smtp.port, smtp_encryption: 'none', smtp_sender: 'vpn@example.com' },
  });
  if (res.statusCode !== 200) throw new Error(`smtp settings: ${res.statusCode} ${res.body}`);
}

/** The decoded parts of a received message by content type (`text/plain`, `text/html`), or the single body. */
export function mailParts(raw: string): Record<string, string> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return { 'text/plain': bodyOf(raw) };
  const parts: Record<string, string> = {};
  for (const part of raw.split(`--${boundary}`).slice(1)) {
    const type = /content-type:\s*([^;\r\n]+)/i.exec(part)?.[1]?.trim().toLowerCase();
    if (type) parts[type] = bodyOf(part.replace(/^\r?\n/, ''));
  }
  return parts;
}

/** The first http(s) link in a text. */
export const linkIn = (text: string): string => {
  const url = /https?:\/\/\S+/.exec(text)?.[0];
  if (!url) throw new Error(`no link in: ${text}`);
  return url;
};

/** The `token` query parameter of a link. */
export const tokenOf = (url: string): string => new URL(url).searchParams.get('token') ?? '';

/** The cookie header value of a Set-Cookie answer (name=value only). */
export function cookieFrom(setCookie: string | string[] | undefined, name: string): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = list.find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie in ${JSON.stringify(list)}`);
  return found.split(';')[0] ?? '';
}
