import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '#src/db/rows.js';
import { externalIdentities } from '#src/db/schema/index.js';
import { SecretBox } from '#src/lib/crypto.js';
import { eventsAfter, lastEventId } from '#test/event-rows.js';
import { createTestApp, problemOf, resetDatabase, type TestApp, updateBody } from '#test/helpers.js';
import type { DirectoryData } from '#test/support/fake-directories/directory-data.js';
import { type FakeGoogle, startFakeGoogle } from '#test/support/fake-directories/fake-google.js';
import { startFakeJumpCloud } from '#test/support/fake-directories/fake-jumpcloud.js';
import { type FakeMicrosoft, startFakeMicrosoft } from '#test/support/fake-directories/fake-microsoft.js';
import { type FakeOkta, startFakeOkta } from '#test/support/fake-directories/fake-okta.js';
import { type ProviderValues, saveProvider, TEST_SECRET_KEY } from '#test/support/fake-directories/provider-row.js';
import { DirectorySyncService, type SyncOutcome } from './directory-sync.service.js';
import type { SyncSummary } from './sync-types.js';

const GOOGLE_ADMIN = 'workspace-admin@example.com';
const MS_APP = { id: 'ms-app', secret: 'ms-secret', tenant: 'contoso' };
const OKTA_CLIENT = 'okta-app';
const JC_KEY = 'jc-key';

/** The directory every test starts from; the fakes read it on each request. */
const data: DirectoryData = { users: [], groups: [] };
function resetDirectory() {
  data.users = [
    { id: 'u1', email: 'ann@example.com', active: true },
    { id: 'u2', email: 'bob@example.com', active: false },
    { id: 'u3', email: 'cat@example.com', active: true },
    { id: 'u4', email: 'dan@example.com', active: true },
    { id: 'u5', email: 'eve@example.com', active: true },
  ];
  data.groups = [
    { id: 'g1', name: 'Engineering', members: ['u1', 'u2', 'u3'] },
    { id: 'g2', name: 'Sales', members: ['u1'] },
    { id: 'g3', name: 'Empty', members: [] },
  ];
}

let t: TestApp;
let admin: string;
let google: FakeGoogle;
let ms: FakeMicrosoft;
let okta: FakeOkta;
let jc: Awaited<ReturnType<typeof startFakeJumpCloud>>;
let service: DirectorySyncService;

beforeAll(async () => {
  resetDirectory();
  [google, ms, okta, jc] = await Promise.all([
    startFakeGoogle(data, GOOGLE_ADMIN),
    startFakeMicrosoft(data, MS_APP),
    startFakeOkta(data, OKTA_CLIENT),
    startFakeJumpCloud(data, JC_KEY),
  ]);
  const endpoints = { googleApiUrl: google.url, graphApiUrl: ms.url, jumpcloudApiUrl: jc.url };
  t = await createTestApp({ SECRET_KEY: TEST_SECRET_KEY }, { directorySync: { endpoints } });
  service = new DirectorySyncService(t.database, SecretBox.fromSecret(TEST_SECRET_KEY), endpoints);
});

afterAll(async () => {
  await t?.close();
  await Promise.all([google, ms, okta, jc].map((s) => s?.close()));
});

beforeEach(async () => {
  resetDirectory();
  await resetDatabase(t.database);
  admin = await t.loginAdmin();
  for (const name of ['ann', 'bob', 'loc']) await t.newUser(admin, name, { email: `${name}@example.com` });
});

type Kind = 'Google' | 'Microsoft' | 'Okta' | 'JumpCloud';
const credentials = (kind: Kind, wrong = false): ProviderValues & { kind: Kind } => {
  switch (kind) {
    case 'Google':
      return { kind, adminEmail: GOOGLE_ADMIN, googleServiceAccountKey: wrong ? google.wrongKeyFile : google.keyFile };
    case 'Microsoft':
      return { kind, baseUrl: ms.baseUrl, clientId: MS_APP.id, clientSecret: wrong ? 'wrong' : MS_APP.secret };
    case 'Okta':
      return { kind, baseUrl: okta.url, oktaClientId: OKTA_CLIENT, oktaPrivateJwk: wrong ? okta.wrongJwk : okta.privateJwk };
    case 'JumpCloud':
      return { kind, jumpcloudApiKey: wrong ? 'wrong-key' : JC_KEY };
  }
};
const WRONG_REASON: Record<Kind, RegExp> = {
  Google: /token endpoint failed: HTTP 400: invalid signature/,
  Microsoft: /AADSTS7000215: Invalid client secret/,
  Okta: /client_assertion signature is invalid/,
  JumpCloud: /HTTP 401: Unauthorized/,
};

async function sync(): Promise<SyncSummary> {
  const outcome: SyncOutcome = await service.runIfDue(new Date(), true);
  if (outcome.state !== 'done') throw new Error(`sync did not run: ${JSON.stringify(outcome)}`);
  return outcome.summary;
}
const user = async (name: string) => (await t.request('GET', `/api/v1/user/${name}`, { cookie: admin })).json();
const members = async (name: string) => {
  const res = await t.request('GET', `/api/v1/group/${name}`, { cookie: admin });
  return res.statusCode === 200 ? (res.json().members as string[]) : undefined;
};
const NO_CHANGE = {
  identities_linked: 0,
  users_enabled: 0,
  users_disabled: 0,
  users_deleted: 0,
  groups_created: 0,
  members_added: 0,
  members_removed: 0,
  skipped: [],
};

describe.each(['Google', 'Microsoft', 'Okta', 'JumpCloud'] as const)('directory sync from %s', (kind) => {
  it('tests the connection with counts, and names the reason of wrong credentials', async () => {
    await saveProvider(t.database.db, { ...credentials(kind), groupMatch: ['engineering', 'Sales'] });
    const ok = await t.request('GET', '/api/v1/test_directory_sync', { cookie: admin });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ success: true, users: 5, groups: 2 });

    await saveProvider(t.database.db, credentials(kind, true));
    const bad = await t.request('GET', '/api/v1/test_directory_sync', { cookie: admin });
    expect(problemOf(bad).status).toBe(400);
    expect(problemOf(bad).code).toBe('directory_sync.failed');
    expect(String(problemOf(bad).body.detail)).toMatch(WRONG_REASON[kind]);
    expect(bad.body).not.toContain(kind === 'Microsoft' ? MS_APP.secret : JC_KEY);
  });

  it('syncs status and memberships of the users it knows, across pages, and a second run changes nothing', async () => {
    await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: 'Engineering', members: ['loc'] } });
    await saveProvider(t.database.db, { ...credentials(kind), userBehavior: 'disable', groupMatch: ['Engineering', 'sales'] });
    const before = await lastEventId(t.database.db);

    const first = await sync();
    expect(first).toMatchObject({
      directory_users: 5,
      directory_groups: 2,
      identities_linked: 2,
      users_enabled: 0,
      users_disabled: 1,
      users_deleted: 0,
      groups_created: 1,
      members_added: 3,
      members_removed: 0,
      skipped: [],
    });
    expect((await user('bob')).is_active).toBe(false);
    expect((await user('ann')).is_active).toBe(true);
    expect(await members('Engineering')).toEqual(['ann', 'bob', 'loc']);
    expect(await members('Sales')).toEqual(['ann']);
    expect(await members('Empty')).toBeUndefined();

    const recorded = await eventsAfter(t.database.db, before);
    const disabled = recorded.find((e) => e.type === 'user.disabled');
    expect(disabled).toMatchObject({ actor_type: 'system', object_name: 'bob', details: { source: 'directory_sync' } });
    expect(recorded.filter((e) => e.type === 'group.member_added').every((e) => e.details.source === 'directory_sync')).toBe(true);
    expect(recorded.at(-1)).toMatchObject({ type: 'directory.sync_completed', module: 'directory', details: { users_disabled: 1 } });

    const mark = await lastEventId(t.database.db);
    expect(await sync()).toMatchObject(NO_CHANGE);
    expect((await eventsAfter(t.database.db, mark)).map((e) => e.type)).toEqual(['directory.sync_completed']);

    // Ann leaves Engineering at the directory: she leaves it here; loc, a local account, stays.
    (data.groups[0] as { members: string[] }).members = ['u2', 'u3'];
    expect(await sync()).toMatchObject({ ...NO_CHANGE, members_removed: 1 });
    expect(await members('Engineering')).toEqual(['bob', 'loc']);
  });
});

describe('directory sync behaviours (JumpCloud)', () => {
  const save = (values: ProviderValues = {}) => saveProvider(t.database.db, { ...credentials('JumpCloud'), ...values });

  it('keep leaves a suspended account alone; the directory re-enables an account it has active', async () => {
    await save({ userBehavior: 'keep', syncTarget: 'users' });
    const disabled = await t.request('PUT', '/api/v1/user/ann', {
      cookie: admin,
      payload: updateBody(await user('ann'), { is_active: false }),
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const summary = await sync();
    expect(summary).toMatchObject({ ...NO_CHANGE, identities_linked: 2, users_enabled: 1, directory_groups: 0 });
    expect((await user('bob')).is_active).toBe(true);
    expect((await user('ann')).is_active).toBe(true);
    expect(await members('Engineering')).toBeUndefined();
  });

  it('delete removes accounts gone from the directory; admin_behavior applies to admins', async () => {
    await t.request('POST', '/api/v1/group/admin', { cookie: admin, payload: { username: 'ann' } });
    (data.users[1] as { active: boolean }).active = true;
    await save({ userBehavior: 'delete', adminBehavior: 'disable', syncTarget: 'users' });
    expect(await sync()).toMatchObject({ identities_linked: 2, users_disabled: 0, users_deleted: 0 });
    // Both leave the directory (ann, an admin, is disabled; bob deleted); cat never had an account.
    data.users = data.users.filter((u) => u.id !== 'u1' && u.id !== 'u2');
    const before = await lastEventId(t.database.db);
    expect(await sync()).toMatchObject({ users_disabled: 1, users_deleted: 1 });
    expect((await user('ann')).is_active).toBe(false);
    expect((await t.request('GET', '/api/v1/user/bob', { cookie: admin })).statusCode).toBe(404);
    expect((await user('loc')).is_active).toBe(true);
    const deleted = (await eventsAfter(t.database.db, before)).find((e) => e.type === 'user.deleted');
    expect(deleted?.details).toMatchObject({ username: 'bob', source: 'directory_sync' });
  });

  it('never disables, deletes or demotes the last admin, and says so', async () => {
    data.users.push({ id: 'u9', email: 'admin@palisade.local', active: false });
    data.groups.push({ id: 'g9', name: 'admin', members: [] });
    await save({ adminBehavior: 'delete', groupMatch: ['admin'] });
    const summary = await sync();
    expect(summary).toMatchObject({ users_deleted: 0, members_removed: 0 });
    expect(summary.skipped).toEqual([
      { change: 'delete', username: 'admin', reason: 'last_admin' },
      { change: 'remove_member', username: 'admin', group: 'admin', reason: 'last_admin' },
    ]);
    expect(await members('admin')).toEqual(['admin']);
    expect((await user('admin')).is_active).toBe(true);
  });

  it('blank group_match syncs every group; a name Palisade refuses is skipped', async () => {
    data.groups.push({ id: 'g4', name: 'R&D', members: ['u1'] });
    await save({ syncTarget: 'groups', userBehavior: 'disable' });
    const summary = await sync();
    expect(summary).toMatchObject({ directory_groups: 4, groups_created: 3, users_disabled: 0 });
    expect(summary.skipped).toEqual([{ change: 'create_group', group: 'R&D', reason: 'invalid_group_name' }]);
    expect(await members('Empty')).toEqual([]);
    expect((await user('bob')).is_active).toBe(true);
  });

  it('a run the directory refuses changes nothing and records directory.sync_failed', async () => {
    await save({ jumpcloudApiKey: 'wrong-key', userBehavior: 'disable' });
    const outcome = await service.runIfDue(new Date(), true);
    expect(outcome).toMatchObject({ state: 'failed', reason: expect.stringMatching(/HTTP 401/) });
    expect((await user('bob')).is_active).toBe(true);
    // Not due again until sync_interval has passed since that run.
    await save({ userBehavior: 'disable' });
    expect(await service.runIfDue(new Date())).toEqual({ state: 'idle' });
    expect(await service.runIfDue(new Date(Date.now() + 3601_000))).toMatchObject({ state: 'done' });
  });

  it('a sign-in link the directory does not list (Microsoft: the OpenID sub) does not make an account gone', async () => {
    const [ann] = await queryRows<{ id: number }>(t.database.db, sql`select id from users where username = 'ann'`);
    await t.database.db.insert(externalIdentities).values({ userId: ann?.id ?? 0, provider: 'JumpCloud', subject: 'oidc-pairwise-sub' });
    await save({ userBehavior: 'delete', syncTarget: 'users' });
    expect(await sync()).toMatchObject({ identities_linked: 2, users_deleted: 1 });
    expect((await user('ann')).is_active).toBe(true);
    // bob (suspended at the directory) is the one deleted; a second run keeps ann.
    expect(await sync()).toMatchObject(NO_CHANGE);
    expect((await user('ann')).is_active).toBe(true);
  });

  it('a directory that lists nobody changes nothing (a misconfiguration, not a mass departure)', async () => {
    await save({ userBehavior: 'delete', syncTarget: 'users' });
    await sync();
    data.users = [];
    const outcome = await service.runIfDue(new Date(), true);
    expect(outcome).toMatchObject({ state: 'failed', reason: expect.stringMatching(/listed no users/) });
    expect((await user('ann')).is_active).toBe(true);
  });

  it('without a directory provider the test answers directory_sync.not_configured', async () => {
    await saveProvider(t.database.db, { kind: 'Custom' });
    const res = await t.request('GET', '/api/v1/test_directory_sync', { cookie: admin });
    expect(problemOf(res)).toMatchObject({ status: 400, code: 'directory_sync.not_configured' });
  });
});
