import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';

/** A WireGuard key as the API accepts it: base64 of 32 random bytes. */
export const randomKey = () => randomBytes(32).toString('base64');

/** A private /24 that other specs in the same run are unlikely to use. */
export function uniqueSubnet(): { prefix: string; gateway: string } {
  const a = 16 + Math.floor(Math.random() * 200);
  const b = Math.floor(Math.random() * 250);
  return { prefix: `10.${a}.${b}`, gateway: `10.${a}.${b}.1/24` };
}

/** Creates a user (with a password, so it can sign in) through the API from the admin's session. */
export async function createUserViaApi(page: Page, username: string, password: string): Promise<number> {
  return page.evaluate(
    async ({ username, password }) => {
      const res = await fetch('/api/v1/user', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, first_name: 'Dev', last_name: username, email: `${username}@example.com`, password }),
      });
      if (res.status !== 201) throw new Error(`create user: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: number }).id;
    },
    { username, password },
  );
}
