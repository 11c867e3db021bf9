import { expect, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { uniqueSubnet } from '../support/locations';

test('an admin edits a location (tags, groups, numbers) and deletes it after confirming', async ({ page }) => {
  const suffix = uniqueSuffix();
  const name = `branch-${suffix}`;
  const group = `ops-${suffix}`;
  const subnet = uniqueSubnet();
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  const id = await page.evaluate(
    async ({ name, group, gateway }) => {
      const post = (url: string, body: unknown) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await post('/api/v1/group', { name: group });
      const res = await post('/api/v1/network', { name, address: [gateway], endpoint: 'branch.example.com', port: 51820 });
      return ((await res.json()) as { id: number }).id;
    },
    { name, group, gateway: subnet.gateway },
  );

  await navigate(page, 'Locations');
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/locations/${id}$`));
  const form = page.getByRole('form', { name: 'Location settings' });
  await expect(form.getByLabel('Location name')).toHaveValue(name);

  // An edited, unsaved form asks before the navigation discards it.
  await form.getByLabel('Gateway port').fill('51821');
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await navigate(page, 'Users');
  await expect.poll(() => asked).toEqual(['Leave this page? Your unsaved changes will be lost.']);
  await expect(page).toHaveURL(new RegExp(`/locations/${id}$`));
  await expect(form.getByLabel('Gateway port')).toHaveValue('51821');

  const dns = form.getByLabel(/^DNS servers/);
  await dns.fill('bad_host!');
  await dns.press('Enter');
  await form.getByLabel('Gateway port').fill('70000');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Maximum port is 65535')).toBeVisible();
  await expect(form.getByText('Enter a valid address').first()).toBeVisible();

  await form.getByRole('button', { name: 'Remove bad_host!' }).click();
  await dns.fill('1.1.1.1, 9.9.9.9');
  await dns.press('Enter');
  await form.getByLabel('Gateway port').fill('51830');
  await form.getByRole('checkbox', { name: group }).check();
  await form.getByRole('checkbox', { name: 'Require MFA to connect' }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Location ${name} saved.`)).toBeVisible();

  const saved = await page.evaluate(async (id) => (await fetch(`/api/v1/network/${id}`)).json(), id);
  expect(saved).toMatchObject({ port: 51830, dns: ['1.1.1.1', '9.9.9.9'], allowed_groups: [group], mfa_enabled: true });

  await page.getByRole('link', { name: '← All locations' }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  // The list says the location requires MFA.
  await expect(row).toContainText('Required');
  await expect(row).not.toContainText('Not enforced yet');
  await expect(row).toContainText(group);

  await row.getByRole('link', { name }).click();
  await page.getByRole('button', { name: 'Delete location' }).click();
  await page
    .getByRole('alertdialog', { name: `Delete location ${name}` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.getByText(`Location ${name} deleted.`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
});
