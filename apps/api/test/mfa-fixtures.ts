import { generateSync } from 'otplib';
import { cookieOf, type TestApp, USER_PASSWORD } from '#test/helpers.js';

/** The TOTP code `offset` 30-second steps from now. */
export const totpCode = (secret: string, offset = 0): string =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/** Sets up and enables TOTP for the signed-in `cookie`; returns the secret and the recovery codes. */
export async function enableTotp(t: TestApp, cookie: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const init = await t.request('POST', '/api/v1/auth/totp/init', { cookie });
  if (init.statusCode !== 200) throw new Error(`totp init: ${init.statusCode} ${init.body}`);
  const secret = init.json().secret as string;
  const enabled = await t.request('POST', '/api/v1/auth/totp', { cookie, payload: { code: totpCode(secret) } });
  if (enabled.statusCode !== 200) throw new Error(`totp enable: ${enabled.statusCode} ${enabled.body}`);
  return { secret, recoveryCodes: (enabled.json().recovery_codes as string[] | undefined) ?? [] };
}

/** The password step of a user with MFA: the pending session's cookie. */
export async function passwordStep(t: TestApp, username: string, remoteAddress?: string): Promise<string> {
  const res = await t.request('POST', '/api/v1/auth', {
    payload: { username, password: USER_PASSWORD },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (res.statusCode !== 201) throw new Error(`password step ${username}: ${res.statusCode} ${res.body}`);
  return cookieOf(res);
}

/** A 6-digit code that is none of the TOTP codes valid around now (±2 steps). */
export function wrongCode(secret: string): string {
  const valid = new Set([-2, -1, 0, 1, 2].map((offset) => totpCode(secret, offset)));
  for (let i = 0; ; i++) {
    const code = String(i).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}
