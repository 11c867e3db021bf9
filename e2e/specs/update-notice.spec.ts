import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { signIn } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME, E2E_UPDATE_FEED_PORT } from '../support/constants';

/**
 * Spec §2/§4: the update toast and modal. The release feed is served here, on the port the e2e
 * product reads it from (playwright.config.ts: UPDATE_FEED_URL, checked every second); the egress
 * guard lets the product reach it because the spec adds 127.0.0.1 to the allow-list (restored after).
 */
test.describe.configure({ mode: 'serial' });

let server: Server;
let releases: unknown[] = [];
let savedCidrs: string[] = [];
let next = '';
let afterNext = '';

const release = (version: string, critical: boolean) => ({
  version,
  critical,
  release_notes_url: `https://palisade.dev/releases/${version}`,
  published_at: '2026-11-20T10:00:00Z',
});

async function signedInApi(page: Page): Promise<APIRequestContext> {
  const api = page.context().request;
  const res = await api.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  expect(res.status()).toBe(200);
  return api;
}

/** Waits until the product has read the feed and announces `version` (it reads it every second). */
async function announced(api: APIRequestContext, version: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const res = await api.get('/api/v1/updates');
        return res.status() === 200 ? (await res.json()).version : res.status();
      },
      { timeout: 20_000 },
    )
    .toBe(version);
}

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url !== '/releases.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ releases }));
  });
  server.listen(E2E_UPDATE_FEED_PORT, '127.0.0.1');
  await once(server, 'listening');
});

test.afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

test('the update toast: dismissal per version, a newer version returns, more opens the modal', async ({ page }) => {
  const api = await signedInApi(page);
  const info = await (await api.get('/api/v1/info')).json();
  const [major, minor, patch] = String(info.version).split('.').map(Number) as [number, number, number];
  next = `${major}.${minor}.${patch + 1}`;
  afterNext = `${major}.${minor + 1}.0`;
  savedCidrs = (await (await api.get('/api/v1/settings')).json()).egress_allow_cidrs;
  expect((await api.patch('/api/v1/settings', { data: { egress_allow_cidrs: [...savedCidrs, '127.0.0.1/32'] } })).status()).toBe(200);
  try {
    releases = [release(next, true)];
    await announced(api, next);

    await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    const toast = page.locator('[data-toast-id="update-available"]');
    await expect(toast).toContainText(`Palisade ${next} is available.`);
    await expect(toast).toContainText('Critical update');
    await expect(toast.getByRole('link', { name: 'Release notes' })).toHaveAttribute('href', `https://palisade.dev/releases/${next}`);

    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await expect(toast).toHaveCount(0);
    // After a reload the same version is announced again, and stays dismissed.
    const checked = page.waitForResponse((r) => r.url().endsWith('/api/v1/updates') && r.status() === 200);
    await page.reload();
    await checked;
    await expect(page.getByRole('navigation').first()).toBeVisible();
    await expect(toast).toHaveCount(0);

    // A newer version in the feed: the toast returns (not critical this time).
    releases = [release(next, true), release(afterNext, false)];
    await announced(api, afterNext);
    await page.reload();
    await expect(toast).toContainText(`Palisade ${afterNext} is available.`);
    // Critical: a skipped critical release still makes the update critical (docs/updates.md).
    await expect(toast).toContainText('Critical update');

    await toast.getByRole('button', { name: 'More' }).click();
    await expect(toast).toHaveCount(0);
    const dialog = page.getByRole('dialog', { name: 'New version available' });
    await expect(dialog).toContainText(`Palisade ${afterNext} has been released.`);
    await expect(dialog.getByRole('link', { name: 'Release notes' })).toHaveAttribute('href', `https://palisade.dev/releases/${afterNext}`);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toHaveCount(0);
  } finally {
    releases = [];
    await api.patch('/api/v1/settings', { data: { egress_allow_cidrs: savedCidrs } });
  }
});
