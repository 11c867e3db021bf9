import { SUPPORT_REDACTED } from '@palisade/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalProviders, gateways, settings } from '#src/db/schema/index.js';
import { SecretBox } from '#src/lib/crypto.js';
import { ADMIN_PASSWORD, createTestApp, problemOf, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { locationBody, newKey } from '#test/network-fixtures.js';
import { startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';
import { mintLicence } from '#test/support/licence.js';

const SECRET_KEY = 'support-test-secret-key-0123456789abcdef';
const SUPPORT_EMAIL = 'support@palisade.test';

/** Every secret the instance is given; none may appear in support data, logs or the mail. */
const SECRETS = {
  smtpPassword: 'Smtp-Secret-9f3k2',
  ldapBindPassword: 'Ldap-Bind-Secret-7h1q',
  idpClientSecret: 'Idp-Client-Secret-4m8z',
  googleKey: 'Google-Service-Key-2p6w',
  oktaJwk: 'Okta-Private-Jwk-5t0e',
  jumpcloudKey: 'Jumpcloud-Api-Key-8r3u',
  webhookToken: 'Webhook-Token-Secret-1x9c',
  wrongPassword: 'Wr0ng-Login-Secret-6b2n',
  queryToken: 'Query-Token-Secret-3v7d',
};

/** MIME attachments of a received mail: file name → decoded content. */
function attachmentsOf(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return out;
  for (const part of raw.split(`--${boundary}`)) {
    const name = /filename="?([^";\r\n]+)"?/i.exec(part)?.[1];
    if (!name) continue;
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
    const body = rest.join('\n\n');
    out[name] = /content-transfer-encoding:\s*base64/i.test(head) ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
  }
  return out;
}

describe('support data, logs and POST /mail/support', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: string;
  let user: string;
  /** Secrets only known once created (OIDC app secret, API token, session ids, sealed values). */
  const dynamic: string[] = [];
  const stdout: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer({ auth: { user: 'palisade', pass: SECRETS.smtpPassword } });
    t = await createTestApp(
      { LOG_LEVEL: 'info', SECRET_KEY, SUPPORT_EMAIL },
      { logger: undefined, logStream: { write: (line: string) => void stdout.push(line) } },
    );
    // A wrong password at login, then the admin's own (both in the request body).
    expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'admin', password: SECRETS.wrongPassword } })).statusCode).toBe(
      401,
    );
    admin = await t.loginAdmin();
    dynamic.push(ADMIN_PASSWORD, /palisade_session=([^;]+)/.exec(admin)?.[1] ?? 'missing-session');
    user = await t.createUser('someone');
    dynamic.push(USER_PASSWORD, /palisade_session=([^;]+)/.exec(user)?.[1] ?? 'missing-session');

    const patch = await t.request('PATCH', '/api/v1/settings', {
      cookie: admin,
      payload: {
        smtp_server: '127.0.0.1',
        smtp_port: smtp.port,
        smtp_encryption: 'none',
        smtp_user: 'palisade',
        smtp_password: SECRETS.smtpPassword,
        smtp_sender: 'vpn@example.com',
        ldap_url: 'ldap://127.0.0.1:1',
        ldap_bind_username: 'cn=admin,dc=example,dc=com',
        ldap_bind_password: SECRETS.ldapBindPassword,
        egress_allow_cidrs: ['127.0.0.0/8'],
      },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    // The external IdP and its directory sync credentials, sealed as the API stores them.
    const box = SecretBox.fromSecret(SECRET_KEY);
    await t.database.db.insert(externalProviders).values({
      kind: 'Custom',
      name: 'corp',
      clientId: 'corp-client',
      clientSecret: box.encrypt(SECRETS.idpClientSecret),
      baseUrl: 'https://idp.example.com',
      googleServiceAccountKey: box.encrypt(SECRETS.googleKey),
      oktaPrivateJwk: box.encrypt(SECRETS.oktaJwk),
      jumpcloudApiKey: box.encrypt(SECRETS.jumpcloudKey),
    });
    const app = await t.request('POST', '/api/v1/oauth', {
      cookie: admin,
      payload: { name: 'wiki', redirect_uris: ['https://wiki.example.com/cb'], scopes: ['openid'] },
    });
    expect(app.statusCode, app.body).toBe(201);
    dynamic.push(app.json().client_secret);
    const hook = await t.request('POST', '/api/v1/webhook', {
      cookie: admin,
      payload: { url: 'http://127.0.0.1:9/hook', token: SECRETS.webhookToken, triggers: ['user.created'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const licenceKey = mintLicence({ customer: 'Support Test Corp' });
    const licence = await t.request('PUT', '/api/v1/licence', { cookie: admin, payload: { licence_key: licenceKey } });
    expect(licence.statusCode, licence.body).toBe(200);
    dynamic.push(licenceKey);
    const token = await t.request('POST', '/api/v1/user/admin/api_token', { cookie: admin, payload: { name: 'support test' } });
    expect(token.statusCode, token.body).toBe(201);
    const apiToken = token.json().token as string;
    dynamic.push(apiToken, apiToken.slice(4));
    // Requests carrying them: the API token in a header, a secret in a query string.
    const me = await t.request('GET', '/api/v1/me', { headers: { authorization: `Bearer ${apiToken}` } });
    expect(me.statusCode).toBe(200);
    await t.request('GET', `/api/v1/info?token=${SECRETS.queryToken}`, { cookie: admin });
    // A later change that logs carelessly: the redaction still holds.
    t.app.log.info({ body: { password: SECRETS.wrongPassword, client_secret: SECRETS.idpClientSecret } }, 'careless body');
    t.app.log.warn(`bind failed for ldap://binder:${SECRETS.ldapBindPassword}@ldap.example.com, header Bearer ${apiToken}`);
    t.app.log.info({ cookie: admin }, 'careless cookie');

    // Counts: 2 users, a location, a user device, a network device, a connected and a gone gateway.
    const location = await t.request('POST', '/api/v1/network', { cookie: admin, payload: locationBody() });
    expect(location.statusCode, location.body).toBe(201);
    const locationId = location.json().id as number;
    const device = await t.request('POST', '/api/v1/device/someone', {
      cookie: admin,
      payload: { name: 'laptop', wireguard_pubkey: newKey() },
    });
    expect(device.statusCode, device.body).toBe(201);
    const networkDevice = await t.request('POST', '/api/v1/device/network', {
      cookie: admin,
      payload: { name: 'printer', location_id: locationId, wireguard_pubkey: newKey() },
    });
    expect(networkDevice.statusCode, networkDevice.body).toBe(201);
    const now = new Date();
    await t.database.db.insert(gateways).values([
      {
        locationId,
        gatewayId: 'gw-up',
        name: 'up',
        hostname: 'gw1',
        version: '1.2.3',
        streamId: 's1',
        connectedAt: now,
        lastSeenAt: now,
        state: 'synced',
      },
      {
        locationId,
        gatewayId: 'gw-down',
        name: 'down',
        hostname: 'gw2',
        version: '1.2.0',
        disconnectedAt: now,
        lastSeenAt: new Date(now.getTime() - 3600_000),
      },
    ]);
    // The sealed forms must not leak either.
    const [row] = await t.database.db.select().from(settings);
    dynamic.push(row?.smtpPassword ?? 'missing', row?.ldapBindPassword ?? 'missing');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const allSecrets = () => [...Object.values(SECRETS), ...dynamic];
  const leaked = (text: string) => allSecrets().filter((s) => text.includes(s));

  it('GET /support/configuration: versions, database, settings with every secret redacted, counts and gateways', async () => {
    const res = await t.request('GET', '/api/v1/support/configuration', { cookie: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="palisade-support-.*\.json"$/);
    expect(leaked(res.body)).toEqual([]);
    const data = res.json();
    expect(data).toMatchObject({
      palisade_version: expect.any(String),
      node_version: process.version,
      database: { kind: 'postgresql', server_version: expect.stringMatching(/^\d+/), migration_level: expect.stringMatching(/^\d{4}_/) },
      modules: { wireguard: true, webhooks: true, worker: true, openid: true },
      counts: { users: 2, user_devices: 1, network_devices: 1, locations: 1, gateways: 2, gateways_connected: 1 },
      support_email: SUPPORT_EMAIL,
    });
    expect(data.database.migrations_applied).toBeGreaterThan(30);
    expect(data.settings).toMatchObject({
      smtp_server: '127.0.0.1',
      smtp_password: SUPPORT_REDACTED,
      ldap_bind_password: SUPPORT_REDACTED,
      licence_key: SUPPORT_REDACTED,
    });
    expect(data.external_providers[0]).toMatchObject({
      client_id: 'corp-client',
      client_secret: SUPPORT_REDACTED,
      google_service_account_key: SUPPORT_REDACTED,
      okta_private_jwk: SUPPORT_REDACTED,
      jumpcloud_api_key: SUPPORT_REDACTED,
    });
    expect(data.gateways.map((g: { name: string; connected: boolean; version: string }) => [g.name, g.connected, g.version])).toEqual([
      ['up', true, '1.2.3'],
      ['down', false, '1.2.0'],
    ]);
  });

  it('GET /support/logs: the request log lines, with no secret in them (stdout unchanged)', async () => {
    const res = await t.request('GET', '/api/v1/support/logs', { cookie: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="palisade-logs-.*\.txt"$/);
    expect(res.body).toContain('request completed');
    expect(res.body).toContain('/api/v1/info?token=[redacted]');
    expect(res.body).toContain('careless body');
    expect(res.body).toContain('bind failed for ldap://binder:[redacted]@');
    expect(leaked(res.body)).toEqual([]);
    // The logger's destination still receives every line (the ring is a copy).
    const lines = res.body.trim().split('\n');
    expect(stdout.join('').split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(lines.length);
  });

  it('POST /mail/support sends both as attachments to the support address', async () => {
    const before = smtp.received.length;
    const res = await t.request('POST', '/api/v1/mail/support', { cookie: admin });
    expect(res.statusCode, res.body).toBe(204);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.to).toEqual([SUPPORT_EMAIL]);
    const files = attachmentsOf(mail?.raw ?? '');
    const names = Object.keys(files);
    expect(names.some((n) => /^palisade-support-.*\.json$/.test(n))).toBe(true);
    expect(names.some((n) => /^palisade-logs-.*\.txt$/.test(n))).toBe(true);
    const json = JSON.parse(files[names.find((n) => n.endsWith('.json')) ?? ''] ?? '{}');
    expect(json.counts.users).toBe(2);
    expect(files[names.find((n) => n.endsWith('.txt')) ?? '']).toContain('request completed');
    expect(leaked(mail?.raw ?? '')).toEqual([]);
    expect(leaked(Object.values(files).join('\n'))).toEqual([]);
  });

  it('refusals: non-admin 403, SMTP refusing or missing 400 with a stable code', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/support/configuration'],
      ['GET', '/api/v1/support/logs'],
      ['POST', '/api/v1/mail/support'],
    ] as const) {
      expect(problemOf(await t.request(method, url, { cookie: user })).code).toBe('auth.forbidden');
      expect((await t.request(method, url)).statusCode).toBe(401);
    }
    const sent = smtp.received.length;
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { smtp_password: 'not-the-password' } });
    const refused = problemOf(await t.request('POST', '/api/v1/mail/support', { cookie: admin }));
    expect(refused).toMatchObject({ status: 400, code: 'mail.send_failed' });
    expect(refused.body.detail).toMatch(/^Error sending email: /);
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { smtp_server: '' } });
    expect(problemOf(await t.request('POST', '/api/v1/mail/support', { cookie: admin }))).toMatchObject({
      status: 400,
      code: 'mail.not_configured',
    });
    expect(smtp.received.length).toBe(sent);
  });
});

describe('POST /mail/support without SUPPORT_EMAIL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 400 support.email_not_configured and the configuration has no address', async () => {
    const admin = await t.loginAdmin();
    expect(problemOf(await t.request('POST', '/api/v1/mail/support', { cookie: admin }))).toMatchObject({
      status: 400,
      code: 'support.email_not_configured',
    });
    const data = (await t.request('GET', '/api/v1/support/configuration', { cookie: admin })).json();
    expect(data).not.toHaveProperty('support_email');
    // Without the production logger (tests pass logger: false) the ring is simply empty.
    expect((await t.request('GET', '/api/v1/support/logs', { cookie: admin })).body).toBe('');
  });
});
