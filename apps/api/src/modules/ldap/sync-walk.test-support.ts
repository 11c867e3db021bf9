import type { HttpMethod } from '#test/helpers.js';
import { type Slapd, startSlapd } from '#test/support/slapd.js';

/** The parts of the events walk's world these fixtures use (test/events-walk.int.test.ts). */
interface WalkWorld {
  admin: { cookie: string };
  api(method: HttpMethod, url: string, as: { cookie: string }, payload?: unknown): Promise<Record<string, unknown>>;
}

const started: Slapd[] = [];

/** Events-walk fixtures of the LDAP sync routes: a run against an empty private slapd. */
export const LDAP_SYNC_FIXTURES = {
  'POST /api/v1/ldap/sync': async (w: WalkWorld) => {
    const slapd = await startSlapd();
    started.push(slapd);
    await w.api('PATCH', '/api/v1/settings', w.admin, {
      ldap_enabled: true,
      ldap_url: slapd.url,
      ldap_bind_username: slapd.rootDn,
      ldap_bind_password: slapd.rootPassword,
      ldap_user_search_base: slapd.peopleBase,
      ldap_group_search_base: slapd.groupsBase,
    });
    return { url: '/api/v1/ldap/sync', payload: {}, object: { type: 'settings' } };
  },
};

export async function stopLdapSyncWalk(): Promise<void> {
  await Promise.all(started.splice(0).map((s) => s.stop()));
}
