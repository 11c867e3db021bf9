import { expect, type Page, test } from '@playwright/test';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';
import { uniqueSubnet } from '../support/locations';

/** The rules table of one list ("Pending changes" or "Deployed rules"). */
const list = (page: Page, name: 'Pending changes' | 'Deployed rules') => page.getByRole('table', { name });

test('an admin creates an alias and a rule, deploys and discards changes, tests access, and deploys an alias change with its affected rules', async ({
  page,
}) => {
  // One long flow (alias, rule, deploy, discard, access check, alias deploy): room for a busy machine.
  test.setTimeout(60_000);
  const suffix = uniqueSuffix();
  const aliasName = `web-${suffix}`;
  const ruleName = `Admins to web ${suffix}`;
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  // A location denying by default, for the access check at the end.
  const location = `acl-${suffix}`;
  const created = await page.evaluate(
    async (body) =>
      (await fetch('/api/v1/network', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
        .status,
    {
      name: location,
      address: [uniqueSubnet().gateway],
      endpoint: 'acl.example.com',
      port: 51820,
      acl_enabled: true,
      acl_default_allow: false,
    },
  );
  expect(created).toBe(201);
  await navigate(page, 'Access control');
  await expect(page.getByRole('heading', { name: 'Access control' })).toBeVisible();

  // An alias: a new one is deployed at once (no deployed rule uses it yet).
  await page.getByRole('link', { name: 'Aliases' }).click();
  await page.getByRole('button', { name: 'Add alias' }).click();
  const aliasDialog = page.getByRole('dialog', { name: 'Add alias' });
  await aliasDialog.getByLabel('Name').fill(aliasName);
  await aliasDialog.getByRole('radio', { name: 'Destination' }).check();
  await aliasDialog.getByLabel('Destinations').fill('10.50.0.0/24');
  await aliasDialog.getByLabel('Destinations').press('Enter');
  await aliasDialog.getByLabel('Ports').fill('70000');
  await aliasDialog.getByLabel('Ports').press('Enter');
  await aliasDialog.getByRole('button', { name: 'Save' }).click();
  await expect(aliasDialog.getByText('Enter a port or a range between 1 and 65535 (for example 8000-8100)')).toBeVisible();
  await aliasDialog.getByRole('button', { name: 'Remove 70000' }).click();
  await aliasDialog.getByLabel('Ports').fill('8080');
  await aliasDialog.getByLabel('Ports').press('Enter');
  await aliasDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Alias added.')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(aliasName) })).toContainText('Deployed');

  // A rule, checked as the API checks it (spec §5) before it is sent.
  await page.getByRole('link', { name: 'Rules' }).click();
  await page.getByRole('link', { name: 'Add rule' }).click();
  await page.getByLabel('Name').fill(ruleName);
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByText('Allow at least one user, group or network device')).toBeVisible();
  const allowed = page.getByRole('group', { name: 'Allowed' });
  const denied = page.getByRole('group', { name: 'Denied' });
  await allowed.getByLabel('Search Users').fill(ADMIN_USERNAME);
  await allowed.getByRole('button', { name: /^Add .*\(admin\)$/ }).click();
  await denied.getByLabel('Search Users').fill(ADMIN_USERNAME);
  await denied.getByRole('button', { name: /^Add .*\(admin\)$/ }).click();
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(denied.getByText('The same members cannot be both allowed and denied')).toBeVisible();
  await denied.getByRole('button', { name: /^Remove .*\(admin\)$/ }).click();
  await page.getByRole('group', { name: 'Aliases' }).getByRole('checkbox', { name: aliasName }).check();
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByText(`Rule ${ruleName} added; deploy it to apply it.`)).toBeVisible();

  // Pending, then deployed after a confirmation that gives the count.
  const pendingRow = list(page, 'Pending changes').getByRole('row', { name: new RegExp(ruleName) });
  await expect(pendingRow).toContainText('New');
  await expect(pendingRow).toContainText(`alias ${aliasName}`);
  await pendingRow.getByRole('checkbox', { name: `Select ${ruleName}` }).check();
  await page.getByRole('button', { name: 'Deploy selected' }).click();
  const deployDialog = page.getByRole('alertdialog', { name: 'Deploy changes' });
  await expect(deployDialog).toContainText('Deploy 1 pending change?');
  await deployDialog.getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByText('1 change deployed.')).toBeVisible();
  const deployedRow = list(page, 'Deployed rules').getByRole('row', { name: new RegExp(ruleName) });
  await expect(deployedRow).toContainText('Deployed');
  await expect(list(page, 'Pending changes')).toHaveCount(0);

  // Editing the deployed rule makes a pending change; discarding it leaves the deployed rule as it was.
  await deployedRow.getByRole('link', { name: ruleName }).click();
  await expect(page.getByText('This rule is deployed: saving keeps your changes pending until they are deployed.')).toBeVisible();
  await page.getByLabel('Priority').fill('5');
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByText('Change saved; deploy it to apply it.')).toBeVisible();
  await expect(list(page, 'Pending changes').getByRole('row', { name: new RegExp(ruleName) })).toContainText('Modified');
  await expect(deployedRow).toContainText('Change pending');
  await page.getByRole('button', { name: 'Discard all' }).click();
  const discardDialog = page.getByRole('alertdialog', { name: 'Discard changes' });
  await expect(discardDialog).toContainText('Discard 1 pending change?');
  await discardDialog.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByText('1 change discarded.')).toBeVisible();
  await expect(list(page, 'Pending changes')).toHaveCount(0);
  await expect(deployedRow).toContainText('100');
  await expect(deployedRow).not.toContainText('Change pending');

  // The alias stays while the rule uses it: the refusal names the rule.
  await page.getByRole('link', { name: 'Aliases' }).click();
  await page.getByRole('button', { name: `Actions for ${aliasName}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog', { name: 'Delete alias' }).getByRole('button', { name: 'Delete' }).click();
  const inUse = page.getByRole('alertdialog', { name: 'Alias in use' });
  await expect(inUse).toContainText(`${aliasName} cannot be deleted: 1 rule uses it.`);
  await expect(inUse.getByRole('listitem')).toHaveText([ruleName]);
  await inUse.getByRole('button', { name: 'Close', exact: true }).click();

  // Test access: in the location denying by default, the deployed rule lets the admin reach the alias's port, and nothing else.
  await page.getByRole('link', { name: 'Rules' }).click();
  const panel = page.getByRole('region', { name: 'Test access' });
  await panel.getByRole('button', { name: 'Check' }).click();
  await expect(panel.getByText('Choose a location.')).toBeVisible();
  await expect(panel.getByText('Choose the user or device to test.')).toBeVisible();
  const verdict = panel.getByRole('status').filter({ hasText: /Allowed|Denied/ });
  const checkAccess = async (port: string) => {
    await panel.getByLabel('Location').selectOption({ label: location });
    if (await panel.getByRole('button', { name: /^Remove .*\(admin\)$/ }).isHidden()) {
      await panel.getByLabel('Search User').fill(ADMIN_USERNAME);
      await panel.getByRole('button', { name: /^Add .*\(admin\)$/ }).click();
    }
    await panel.getByLabel('Destination IP').fill('10.50.0.7');
    await panel.getByLabel('Port').fill(port);
    await panel.getByRole('button', { name: 'Check' }).click();
  };
  await checkAccess('8080');
  await expect(verdict).toContainText('Allowed');
  await expect(verdict).toContainText(`Rule ${ruleName} allows it.`);
  await checkAccess('9090');
  await expect(verdict).toContainText('Denied');
  await expect(verdict).toContainText('No rule covers this traffic: the location denies by default.');

  // Changing an alias a deployed rule uses waits for its deployment, which first names the rules it affects.
  await page.getByRole('link', { name: 'Aliases' }).click();
  await page.getByRole('button', { name: `Actions for ${aliasName}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const editAlias = page.getByRole('dialog', { name: 'Edit alias' });
  await editAlias.getByLabel('Ports').fill('9090');
  await editAlias.getByLabel('Ports').press('Enter');
  await editAlias.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Alias change saved; deploy it to apply it.')).toBeVisible();
  const aliasRow = page.getByRole('row', { name: new RegExp(aliasName) });
  await expect(aliasRow).toContainText('Changed');
  await page.getByRole('button', { name: 'Deploy 1 alias change' }).click();
  const deployAliases = page.getByRole('alertdialog', { name: 'Deploy alias changes' });
  await expect(deployAliases).toContainText('It changes what 1 deployed rule allows:');
  await expect(deployAliases.getByRole('listitem')).toHaveText([ruleName]);
  await deployAliases.getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByText('1 alias change deployed.')).toBeVisible();
  await expect(aliasRow).toContainText('Deployed');
  await expect(aliasRow).toContainText('8080, 9090');
  await page.getByRole('link', { name: 'Rules' }).click();
  await checkAccess('9090');
  await expect(verdict).toContainText('Allowed');
  await expect(verdict).toContainText(`Rule ${ruleName} allows it.`);
});
