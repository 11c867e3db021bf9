import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { type Slapd, startSlapd } from '#test/support/slapd.js';
import { bindLdap, LdapConnectionError } from './ldap-client.js';

/** A TCP server that accepts connections and never says a word (a hung LDAP server). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = await silentServer();
  await s.close();
  return s.port;
}

describe('GET /ldap/test', () => {
  let t: TestApp;
  let slapd: Slapd;
  let admin: string;
  beforeAll(async () => {
    [t, slapd] = await Promise.all([createTestApp(), startSlapd({ tls: true, users: [{ uid: 'ann', password: 'ann-Secret-1' }] })]);
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(async () => {
    await Promise.all([t?.close(), slapd?.stop()]);
  });

  const configure = async (values: Record<string, unknown>) => {
    const res = await t.request('PATCH', '/api/v1/settings', {
      cookie: admin,
      payload: {
        ldap_url: slapd.url,
        ldap_bind_username: slapd.rootDn,
        ldap_bind_password: slapd.rootPassword,
        ldap_user_search_base: slapd.peopleBase,
        ...values,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const test = () => t.request('GET', '/api/v1/ldap/test', { cookie: admin });
  const expectRejected = async (reason: RegExp) => {
    const res = await test();
    expect(res.statusCode, res.body).toBe(400);
    const problem = res.json() as { code: string; detail?: string };
    expect(problem.code).toBe('ldap.connection_rejected');
    expect(problem.detail).toMatch(/^LDAP connection rejected: /);
    expect(problem.detail).toMatch(reason);
    return problem.detail ?? '';
  };

  it('succeeds with the right bind user and password, before LDAP is enabled too', async () => {
    await configure({});
    const res = await test();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
  });

  it('rejects a wrong bind password and never echoes it', async () => {
    await configure({ ldap_bind_password: 'wrong-Password-9' });
    const detail = await expectRejected(/invalid credentials/i);
    expect(detail).not.toContain('wrong-Password-9');
  });

  it('rejects a user search base that does not exist', async () => {
    await configure({ ldap_user_search_base: 'ou=nobody,dc=example,dc=com' });
    await expectRejected(/ou=nobody,dc=example,dc=com/);
  });

  it('rejects an unreachable server quickly', async () => {
    await configure({ ldap_url: `ldap://127.0.0.1:${await closedPort()}` });
    const started = Date.now();
    await expectRejected(/refused/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects when no URL is set', async () => {
    await expectRejected(/no LDAP server URL/);
  });

  it('StartTLS with certificate verification: fails without the CA, succeeds with it', async () => {
    await configure({ ldap_use_starttls: true, ldap_tls_verify_cert: true, ldap_tls_ca_cert: '' });
    await expectRejected(/StartTLS failed: TLS failure: .*(self[- ]signed|certificate)/i);
    await configure({ ldap_tls_ca_cert: slapd.caCert });
    expect((await test()).statusCode).toBe(200);
  });

  it('StartTLS without verification accepts the unknown CA', async () => {
    await configure({ ldap_use_starttls: true, ldap_tls_verify_cert: false, ldap_tls_ca_cert: '' });
    expect((await test()).statusCode).toBe(200);
  });

  it('ldaps:// checks the certificate the same way', async () => {
    await configure({ ldap_url: slapd.ldapsUrl, ldap_tls_verify_cert: true, ldap_tls_ca_cert: '' });
    await expectRejected(/TLS failure/);
    await configure({ ldap_url: slapd.ldapsUrl, ldap_tls_ca_cert: slapd.caCert });
    expect((await test()).statusCode).toBe(200);
  });

  it('is for admins only', async () => {
    await t.newUser(admin, 'alice');
    const alice = await t.login('alice', USER_PASSWORD);
    expect((await t.request('GET', '/api/v1/ldap/test', { cookie: alice })).statusCode).toBe(403);
    expect((await t.request('GET', '/api/v1/ldap/test')).statusCode).toBe(401);
  });
});

describe('the LDAP client against a server that never answers', () => {
  it('gives up after the operation timeout instead of hanging', async () => {
    const silent = await silentServer();
    try {
      const started = Date.now();
      const settings = { url: `ldap://127.0.0.1:${silent.port}`, useStartTls: false, tlsVerifyCert: true, tlsCaCert: '' };
      const error = await bindLdap(settings, 'cn=admin,dc=example,dc=com', 'x', { connectMs: 500, operationMs: 500 }).catch((e) => e);
      expect(error).toBeInstanceOf(LdapConnectionError);
      expect((error as LdapConnectionError).reason).toMatch(/did not answer in time/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await silent.close();
    }
  });
});
