import { DEFAULT_LDAP_SETTINGS } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '#src/lib/crypto.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { createTestApp, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { loadLdapConfig } from './ldap-config.js';

const SECRET_KEY = 'ldap-settings-test-key-0123456789abcdef';
const BIND_PASSWORD = 'bind-Secret-42';

describe('LDAP settings', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ SECRET_KEY });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const patch = (payload: Record<string, unknown>, cookie = admin) => t.request('PATCH', '/api/v1/settings', { cookie, payload });
  const fields = (res: { json(): { errors?: { path: string; code: string }[] } }) =>
    (res.json().errors ?? []).map((e) => `${e.path}:${e.code}`).sort();

  it('starts with OpenLDAP-style defaults, LDAP off', async () => {
    const res = await t.request('GET', '/api/v1/settings', { cookie: admin });
    expect(res.json()).toMatchObject(DEFAULT_LDAP_SETTINGS);
    expect(res.json()).not.toHaveProperty('ldap_bind_password');
  });

  it('stores every field, seals the bind password, never returns it, and loadLdapConfig unseals it', async () => {
    const res = await patch({
      ldap_enabled: true,
      ldap_url: 'ldaps://ldap.example.com:636',
      ldap_bind_username: 'cn=admin,dc=example,dc=com',
      ldap_bind_password: BIND_PASSWORD,
      ldap_member_attr: 'memberOf',
      ldap_username_attr: 'sAMAccountName',
      ldap_user_obj_class: 'user',
      ldap_user_auxiliary_obj_classes: ['simpleSecurityObject', 'simpleSecurityObject', 'posixAccount'],
      ldap_user_search_base: 'ou=people,dc=example,dc=com',
      ldap_groupname_attr: 'cn',
      ldap_group_search_base: 'ou=groups,dc=example,dc=com',
      ldap_group_member_attr: 'member',
      ldap_group_obj_class: 'group',
      ldap_sync_enabled: true,
      ldap_authoritative_source: 'palisade',
      ldap_sync_interval: 120,
      ldap_use_starttls: false,
      ldap_tls_verify_cert: false,
      ldap_uses_ad: true,
      ldap_user_rdn_attr: 'cn',
      ldap_sync_groups: ['vpn', 'admins'],
      ldap_removed_user_behavior: 'delete',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      ldap_enabled: true,
      ldap_url: 'ldaps://ldap.example.com:636',
      ldap_bind_password_set: true,
      ldap_user_auxiliary_obj_classes: ['simpleSecurityObject', 'posixAccount'],
      ldap_authoritative_source: 'palisade',
      ldap_sync_interval: 120,
      ldap_sync_groups: ['vpn', 'admins'],
      ldap_removed_user_behavior: 'delete',
    });
    expect(res.body).not.toContain(BIND_PASSWORD);
    const stored = await new SettingsRepo(t.database.db).get();
    expect(stored.ldapBindPassword).toMatch(/^v1\./);
    const config = await loadLdapConfig(t.database.db, SecretBox.fromSecret(SECRET_KEY));
    expect(config).toMatchObject({
      enabled: true,
      url: 'ldaps://ldap.example.com:636',
      bindUsername: 'cn=admin,dc=example,dc=com',
      bindPassword: BIND_PASSWORD,
      usernameAttr: 'sAMAccountName',
      userRdnAttr: 'cn',
      syncIntervalSeconds: 120,
      authoritativeSource: 'palisade',
      usesAd: true,
    });
    // The password change is in the activity log by name, never by value.
    const changes = (await t.database.db.execute(
      sql`select details from events where type = 'settings.modified' order by id desc limit 1`,
    )) as unknown as { rows: { details: { keys: string[] } }[] };
    expect(changes.rows[0]?.details.keys).toContain('ldap_bind_password');
    expect(JSON.stringify(changes.rows)).not.toContain(BIND_PASSWORD);
    // Absent keeps the password, '' removes it.
    expect((await patch({ ldap_sync_interval: 600 })).json().ldap_bind_password_set).toBe(true);
    expect((await patch({ ldap_bind_password: '' })).json().ldap_bind_password_set).toBe(false);
    expect((await loadLdapConfig(t.database.db, undefined)).bindPassword).toBe('');
    // The RDN attribute falls back to the username attribute.
    await patch({ ldap_user_rdn_attr: '' });
    expect((await loadLdapConfig(t.database.db, undefined)).userRdnAttr).toBe('sAMAccountName');
  });

  it('refuses bad values with 400 field errors and changes nothing', async () => {
    const before = (await t.request('GET', '/api/v1/settings', { cookie: admin })).json();
    const bad = await patch({
      ldap_url: 'http://ldap.example.com',
      ldap_sync_interval: 59,
      ldap_username_attr: 'u id',
      ldap_authoritative_source: 'both',
      ldap_removed_user_behavior: 'keep',
      ldap_tls_ca_cert: 'not a certificate',
      ldap_sync_groups: [''],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation.failed');
    expect(fields(bad)).toEqual(
      [
        'ldap_url:url.ldap',
        'ldap_sync_interval:min_value',
        'ldap_username_attr:invalid',
        'ldap_authoritative_source:invalid',
        'ldap_removed_user_behavior:invalid',
        'ldap_tls_ca_cert:certificate.pem',
        'ldap_sync_groups.0:required',
      ].sort(),
    );
    expect(fields(await patch({ ldap_url: 'ldap://user:pw@ldap.example.com' }))).toEqual(['ldap_url:url.ldap']);
    expect(fields(await patch({ ldap_url: 'ldap://ldap.example.com/dc=example' }))).toEqual(['ldap_url:url.ldap']);
    expect(fields(await patch({ ldap_sync_interval: 1.5 }))).toEqual(['ldap_sync_interval:number']);
    // Enabling needs a URL and a user search base, checked against what is stored.
    expect(fields(await patch({ ldap_enabled: true }))).toEqual(['ldap_url:required']);
    expect(fields(await patch({ ldap_enabled: true, ldap_url: 'ldap://127.0.0.1:389' }))).toEqual(['ldap_user_search_base:required']);
    expect(fields(await patch({ ldap_url: 'ldaps://127.0.0.1', ldap_use_starttls: true }))).toEqual(['ldap_use_starttls:invalid']);
    expect((await t.request('GET', '/api/v1/settings', { cookie: admin })).json()).toEqual(before);
    // Accepted forms: IPv6, upper-case scheme, trailing slash, a PEM certificate.
    for (const url of ['ldap://[::1]:389', 'LDAPS://ldap.example.com', 'ldap://ldap.example.com/']) {
      expect((await patch({ ldap_url: url })).statusCode, url).toBe(200);
    }
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    expect((await patch({ ldap_tls_ca_cert: pem })).statusCode).toBe(200);
  });

  it('is admin-only', async () => {
    await t.newUser(admin, 'alice');
    const alice = await t.login('alice', USER_PASSWORD);
    expect((await patch({ ldap_enabled: false }, alice)).statusCode).toBe(403);
  });
});
