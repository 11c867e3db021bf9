import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

const here = dirname(fileURLToPath(import.meta.url));

/** A key minted by scripts/mint-licence.mjs with the TEST key, which the e2e product trusts (support/licence-preload.mjs). */
function mintTestLicence(payload: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-licence-'));
  try {
    const file = join(dir, 'payload.json');
    writeFileSync(file, JSON.stringify(payload));
    return execFileSync(process.execPath, [resolve(here, '../../scripts/mint-licence.mjs'), file, '--test-key'], {
      encoding: 'utf8',
    }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 16 §2: an admin pastes a licence key in Settings › Global and sees it active with its
 * customer, type, validity and limits; then removes it after a confirmation (the instance is left
 * without a licence, as the other specs expect).
 */
test('an admin enters a licence in Settings › Global, sees it active, and removes it', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await page.goto('/settings');
  const card = page.getByRole('region', { name: 'Licence' });
  await expect(card.getByText('No licence', { exact: true })).toBeVisible();
  await expect(card.getByText('Enterprise features are on.')).toBeVisible();

  const key = mintTestLicence({
    id: 'lic-e2e',
    customer: 'E2E Corp',
    type: 'subscription',
    valid_until: new Date(Date.now() + 90 * 86_400_000).toISOString(),
    limits: { users: 1000, locations: 50 },
  });
  await card.getByLabel('Licence key').fill(key);
  await card.getByRole('button', { name: 'Save licence' }).click();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByText('E2E Corp')).toBeVisible();
  await expect(card.getByText('lic-e2e')).toBeVisible();
  await expect(card.getByText('Subscription (renews automatically)')).toBeVisible();
  await expect(card.getByRole('row', { name: /^Users/ })).toContainText('1000');
  await expect(card.getByRole('row', { name: /^Devices/ })).toContainText('Unlimited');

  // A changed key is refused and the stored licence stays.
  await card.getByLabel('New licence key').fill(`${key.slice(0, -4)}AAAA`);
  await card.getByRole('button', { name: 'Replace licence' }).click();
  await expect(card.getByRole('alert')).toHaveText('This licence key is not valid: check that you pasted all of it.');
  await expect(card.getByText('E2E Corp')).toBeVisible();

  // The state survives a reload (stored by the API), then the licence is removed after confirming.
  await page.reload();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Remove licence' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove the licence?' });
  await dialog.getByRole('button', { name: 'Remove licence' }).click();
  await expect(card.getByText('No licence', { exact: true })).toBeVisible();
  await expect(card.getByText('E2E Corp')).toHaveCount(0);
});
