import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { navigate } from './console';

/** A WireGuard key as the API accepts it: base64 of 32 random bytes. */
export const randomKey = () => randomBytes(32).toString('base64');

/** A private /24 that other specs in the same run are unlikely to use. */
export function uniqueSubnet(): { prefix: string; gateway: string } {
  const a = 16 + Math.floor(Math.random() * 200);
  const b = Math.floor(Math.random() * 250);
  return { prefix: `10.${a}.${b}`, gateway: `10.${a}.${b}.1/24` };
}

/** A WireGuard server config on `subnet` with two peers at .10 and .11 (`interfaceExtra`: more [Interface] lines). */
export function twoPeerServerConfig(subnet: { prefix: string; gateway: string }, interfaceExtra: readonly string[] = []): string {
  return [
    '[Interface]',
    `PrivateKey = ${randomKey()}`,
    `Address = ${subnet.gateway}`,
    ...interfaceExtra,
    '',
    '[Peer]',
    `PublicKey = ${randomKey()}`,
    `AllowedIPs = ${subnet.prefix}.10/32`,
    '',
    '[Peer]',
    `PublicKey = ${randomKey()}`,
    `AllowedIPs = ${subnet.prefix}.11/32`,
    '',
  ].join('\n');
}

/** From the sidebar through the location wizard to its "Import a WireGuard config" form. */
export async function openImportForm(page: Page): Promise<Locator> {
  await navigate(page, 'Locations');
  await page.getByRole('link', { name: /^(\+ Add location|Set up a location)$/ }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('radio', { name: /Import from a WireGuard config file/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  return page.getByRole('form', { name: 'Import a WireGuard config' });
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
