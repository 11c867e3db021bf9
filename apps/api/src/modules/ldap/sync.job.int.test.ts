import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { type Slapd, startSlapd } from '#test/support/slapd.js';

/** The scheduled LDAP sync runs by itself while LDAP and its sync are on, as the system. */
describe('LDAP sync job', () => {
  let t: TestApp;
  let slapd: Slapd;
  beforeAll(async () => {
    slapd = await startSlapd({ users: [{ uid: 'dana', password: 'dana-Pass-1' }] });
    t = await createTestApp({}, { jobs: true });
  });
  afterAll(async () => {
    await t.close();
    await slapd.stop();
  });

  it('imports the directory without anyone asking', async () => {
    const admin = await t.loginAdmin();
    const patch = await t.request('PATCH', '/api/v1/settings', {
      cookie: admin,
      payload: {
        ldap_enabled: true,
        ldap_url: slapd.url,
        ldap_bind_username: slapd.rootDn,
        ldap_bind_password: slapd.rootPassword,
        ldap_user_search_base: slapd.peopleBase,
        ldap_group_search_base: slapd.groupsBase,
        ldap_sync_enabled: true,
      },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    // The job looks 5 s after start, then every minute while sync was off: allow for both on a busy host.
    const deadline = Date.now() + 100_000;
    let runs: { actor_type: string }[] = [];
    while (Date.now() < deadline) {
      const res = await t.request('GET', '/api/v1/activity_log', { cookie: admin, query: { event: 'ldap.sync_completed' } });
      runs = res.json().items;
      if (runs.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(runs[0]).toMatchObject({ actor_type: 'system' });
    expect((await t.request('GET', '/api/v1/user/dana', { cookie: admin })).statusCode).toBe(200);
  }, 120_000);
});
