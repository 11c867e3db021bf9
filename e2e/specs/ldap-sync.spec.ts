import { expect, type Page, test } from '@playwright/test';
import { type Slapd, startSlapd } from '../../apps/api/test/support/slapd';
import { navigate, signIn, uniqueSuffix } from '../support/console';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../support/constants';

let slapd: Slapd;
const suffix = uniqueSuffix();
const uids = [`sync${suffix}a`, `sync${suffix}b`];
const group = `team${suffix}`;

test.beforeAll(async () => {
  slapd = await startSlapd({
    users: uids.map((uid) => ({ uid, password: 'ldap-Secret-1', givenName: 'Sync', sn: uid })),
    groups: [{ cn: group, members: uids }],
  });
});

test.afterAll(async () => {
  await slapd?.stop();
});

async function restore(page: Page) {
  const request = page.context().request;
  await request.post('/api/v1/auth', { data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } });
  const res = await request.patch('/api/v1/settings', {
    data: {
      ldap_enabled: false,
      ldap_url: '',
      ldap_bind_username: '',
      ldap_bind_password: '',
      ldap_user_search_base: '',
      ldap_group_search_base: '',
      ldap_sync_groups: [],
    },
  });
  expect(res.status()).toBe(200);
  for (const uid of uids) await request.delete(`/api/v1/user/${uid}`);
  await request.delete(`/api/v1/group/${group}`);
}

test('an admin previews an LDAP sync, runs it, and the directory users appear; a second preview has nothing to change', async ({
  page,
}) => {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  try {
    const res = await page.context().request.patch('/api/v1/settings', {
      data: {
        ldap_enabled: true,
        ldap_url: slapd.url,
        ldap_bind_username: slapd.rootDn,
        ldap_bind_password: slapd.rootPassword,
        ldap_user_search_base: slapd.peopleBase,
        ldap_group_search_base: slapd.groupsBase,
        ldap_sync_groups: [group],
      },
    });
    expect(res.status()).toBe(200);
    await navigate(page, 'Settings');
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'LDAP', exact: true }).click();

    await page.getByRole('button', { name: 'Preview sync' }).click();
    const preview = page.getByRole('dialog', { name: 'Preview sync' });
    await expect(preview.getByText('Palisade: create user (2)')).toBeVisible();
    await expect(preview.getByText(`${uids[0]} → ${group}`)).toBeVisible();
    await preview.getByRole('button', { name: 'Close dialog' }).click();

    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByText(/^LDAP sync finished\. Applied: 5, failed: 0\.$/)).toBeVisible();
    await expect(page.getByTestId('ldap-sync-last')).toHaveText(/Applied: 5, failed: 0, skipped: 0\.$/);
    const user = await page.context().request.get(`/api/v1/user/${uids[1]}`);
    expect(await user.json()).toMatchObject({ username: uids[1], first_name: 'Sync', groups: [group] });

    await page.getByRole('button', { name: 'Preview sync' }).click();
    await expect(page.getByRole('dialog', { name: 'Preview sync' }).getByText('Nothing to change')).toBeVisible();
  } finally {
    await restore(page);
  }
});
