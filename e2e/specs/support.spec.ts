import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { navigate, signIn } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

test('an admin downloads the support data from the Support page and it names the instance without its secrets', async ({ page }) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await navigate(page, 'Support');
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await expect(page).toHaveTitle(/^Support · /);

  const download = page.waitForEvent('download');
  await page.getByRole('region', { name: 'Support data' }).getByRole('button', { name: 'Download support data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^palisade-support-.*\.json$/);
  const text = readFileSync((await file.path()) ?? '', 'utf8');
  const data = JSON.parse(text) as {
    palisade_version: string;
    database: { kind: string; migration_level: string; migrations_applied: number };
    modules: Record<string, boolean>;
    settings: Record<string, unknown>;
    counts: { users: number };
  };
  expect(data.palisade_version).toMatch(/^\d+\.\d+\.\d+/);
  // The e2e product runs on the embedded database (DATA_DIR).
  expect(data.database.kind).toBe('embedded');
  expect(data.database.migration_level).toMatch(/^\d{4}_/);
  expect(data.database.migrations_applied).toBeGreaterThan(0);
  expect(Object.keys(data.modules).sort()).toEqual(['openid', 'webhooks', 'wireguard', 'worker']);
  expect(data.counts.users).toBeGreaterThanOrEqual(1);
  expect(data.settings).toHaveProperty('instance_name');
  expect(['', '[redacted]']).toContain(data.settings.smtp_password);
  expect(text).not.toContain(ADMIN_PASSWORD);

  // Without SUPPORT_EMAIL the product offers no sending, and says how to turn it on.
  const mail = page.getByRole('region', { name: 'Send by email' });
  await expect(mail.getByText(/set SUPPORT_EMAIL on the server/)).toBeVisible();
  await expect(mail.getByRole('button', { name: 'Send by email' })).toBeDisabled();
});
