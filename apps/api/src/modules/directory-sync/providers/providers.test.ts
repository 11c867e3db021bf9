import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectoryData } from '#test/support/fake-directories/directory-data.js';
import { startFakeGoogle } from '#test/support/fake-directories/fake-google.js';
import { startFakeJumpCloud } from '#test/support/fake-directories/fake-jumpcloud.js';
import { startFakeMicrosoft } from '#test/support/fake-directories/fake-microsoft.js';
import { startFakeOkta } from '#test/support/fake-directories/fake-okta.js';
import { createDirectoryClient, type DirectoryConfig } from './create-directory-client.js';
import { type DirectoryClient, DirectoryError } from './directory-client.js';
import { nextLink } from './okta.js';

/** Five users and three groups: every listing spans three pages of the fakes' two items. */
const data: DirectoryData = {
  users: [
    { id: 'u1', email: 'ann@example.com', active: true },
    { id: 'u2', email: 'bob@example.com', active: false },
    { id: 'u3', email: 'cat@example.com', active: true },
    { id: 'u4', email: 'dan@example.com', active: true },
    { id: 'u5', email: 'eve@example.com', active: true },
  ],
  groups: [
    { id: 'g1', name: 'Engineering', members: ['u1', 'u3', 'u4', 'u5'] },
    { id: 'g2', name: 'Sales', members: ['u2'] },
    { id: 'g3', name: 'Empty', members: [] },
  ],
};

const base: DirectoryConfig = {
  kind: 'Custom',
  baseUrl: 'https://example.com',
  clientId: 'client',
  clientSecret: undefined,
  adminEmail: '',
  googleServiceAccountKey: undefined,
  oktaClientId: '',
  oktaPrivateJwk: undefined,
  jumpcloudApiKey: undefined,
};

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function expectDirectory(client: DirectoryClient) {
  const users = await client.listUsers();
  expect(users).toEqual(data.users.map((u) => ({ id: u.id, email: u.email, isActive: u.active })));
  const groups = await client.listGroups();
  expect(groups.map((g) => g.name)).toEqual(['Engineering', 'Sales', 'Empty']);
  expect(await client.listGroupMembers(groups[0] as (typeof groups)[0])).toEqual(['u1', 'u3', 'u4', 'u5']);
  expect(await client.listGroupMembers(groups[2] as (typeof groups)[0])).toEqual([]);
}

async function expectRefused(client: () => DirectoryClient, reason: RegExp) {
  const error = await Promise.resolve()
    .then(() => client().listUsers())
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DirectoryError);
  expect((error as Error).message).toMatch(reason);
}

describe('Google Workspace client', () => {
  const admin = 'admin@example.com';
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  beforeAll(async () => {
    google = await startFakeGoogle(data, admin);
    servers.push(google);
  });
  const config = (over: Partial<DirectoryConfig>): DirectoryConfig => ({ ...base, kind: 'Google', adminEmail: admin, ...over });

  it('signs a service-account JWT for the delegated admin and walks every page', async () => {
    await expectDirectory(createDirectoryClient(config({ googleServiceAccountKey: google.keyFile }), { googleApiUrl: google.url }));
    expect(google.requests.filter((r) => r.startsWith('GET /admin/directory/v1/users?')).length).toBe(3);
    expect(google.requests.filter((r) => r.startsWith('POST /token')).length).toBe(1);
  });

  it('reports a key the token endpoint does not accept, and an admin without delegation', async () => {
    await expectRefused(
      () => createDirectoryClient(config({ googleServiceAccountKey: google.wrongKeyFile }), { googleApiUrl: google.url }),
      /token endpoint failed: HTTP 400: invalid signature/,
    );
    await expectRefused(
      () =>
        createDirectoryClient(config({ googleServiceAccountKey: google.keyFile, adminEmail: 'x@example.com' }), {
          googleApiUrl: google.url,
        }),
      /HTTP 401: Client is unauthorized/,
    );
    await expectRefused(() => createDirectoryClient(config({ googleServiceAccountKey: '{"x":1}' })), /no client_email or private_key/);
  });
});

describe('Microsoft Graph client', () => {
  const app = { id: 'app-id', secret: 'app-secret', tenant: 'contoso-tenant' };
  let ms: Awaited<ReturnType<typeof startFakeMicrosoft>>;
  beforeAll(async () => {
    ms = await startFakeMicrosoft(data, app);
    servers.push(ms);
  });
  const config = (secret: string): DirectoryConfig => ({
    ...base,
    kind: 'Microsoft',
    baseUrl: ms.baseUrl,
    clientId: app.id,
    clientSecret: secret,
  });

  it('takes a client-credentials token at the tenant from the base URL and follows @odata.nextLink', async () => {
    await expectDirectory(createDirectoryClient(config(app.secret), { graphApiUrl: ms.url }));
    expect(ms.requests.filter((r) => r.startsWith('GET /v1.0/users')).length).toBe(3);
    expect(ms.requests).toContain(`POST /${app.tenant}/oauth2/v2.0/token`);
  });

  it('reports a wrong client secret with the reason', async () => {
    await expectRefused(() => createDirectoryClient(config('wrong'), { graphApiUrl: ms.url }), /AADSTS7000215: Invalid client secret/);
  });
});

describe('Okta client', () => {
  const clientId = 'okta-service-app';
  let okta: Awaited<ReturnType<typeof startFakeOkta>>;
  const statuses: Record<string, string> = {};
  beforeAll(async () => {
    okta = await startFakeOkta({ ...data, statuses }, clientId);
    servers.push(okta);
  });
  const config = (jwk: string, id = clientId): DirectoryConfig => ({
    ...base,
    kind: 'Okta',
    baseUrl: `${okta.url}/oauth2/default`,
    oktaClientId: id,
    oktaPrivateJwk: jwk,
  });

  it('authenticates with private_key_jwt and follows Link rel="next"', async () => {
    await expectDirectory(createDirectoryClient(config(okta.privateJwk)));
    expect(okta.requests.filter((r) => r.startsWith('GET /api/v1/users')).length).toBe(3);
  });

  it('reports an assertion signed with another key, and a wrong client id', async () => {
    await expectRefused(() => createDirectoryClient(config(okta.wrongJwk)), /client_assertion signature is invalid/);
    await expectRefused(() => createDirectoryClient(config(okta.privateJwk, 'other')), /Invalid value for client_id/);
    await expectRefused(() => createDirectoryClient(config('not json')), /not a JWK/);
  });

  it('reads the next link of a Link header', () => {
    expect(nextLink('<https://o/api/v1/users?limit=2>; rel="self", <https://o/api/v1/users?after=x&limit=2>; rel="next"')).toBe(
      'https://o/api/v1/users?after=x&limit=2',
    );
    expect(nextLink('<https://o/api/v1/users>; rel="self"')).toBeUndefined();
  });
});

describe('JumpCloud client', () => {
  let jc: Awaited<ReturnType<typeof startFakeJumpCloud>>;
  beforeAll(async () => {
    jc = await startFakeJumpCloud(data, 'jc-key');
    servers.push(jc);
  });
  const config = (key: string): DirectoryConfig => ({ ...base, kind: 'JumpCloud', jumpcloudApiKey: key });

  it('pages with skip/limit under the x-api-key', async () => {
    await expectDirectory(createDirectoryClient(config('jc-key'), { jumpcloudApiUrl: jc.url }));
    expect(jc.requests.filter((r) => r.startsWith('GET /api/systemusers')).length).toBe(3);
  });

  it('reports a wrong API key', async () => {
    await expectRefused(() => createDirectoryClient(config('nope'), { jumpcloudApiUrl: jc.url }), /HTTP 401: Unauthorized/);
  });

  it('reports an unreachable API', async () => {
    const gone = await startFakeJumpCloud(data, 'jc-key');
    await gone.close();
    await expectRefused(() => createDirectoryClient(config('jc-key'), { jumpcloudApiUrl: gone.url }), /could not be reached.*ECONNREFUSED/);
  });
});
