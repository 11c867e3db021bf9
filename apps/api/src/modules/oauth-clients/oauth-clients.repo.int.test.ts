import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '#src/lib/crypto.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { findOAuthClient, OAuthClientsRepo } from './oauth-clients.repo.js';

const box = SecretBox.fromSecret('oauth-clients-test-secret-key-0123456789');

describe('findOAuthClient', () => {
  let t: TestApp;
  let repo: OAuthClientsRepo;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    repo = new OAuthClientsRepo(t.database.db);
  });
  afterAll(() => t.close());

  it('returns a confidential client with its secret decrypted, and reads the table on every call', async () => {
    await repo.insert({
      clientId: 'grafana-client-id',
      clientSecretEnc: box.encrypt('s3cret-value'),
      name: 'Grafana',
      redirectUris: ['https://grafana.example.com/login/generic_oauth'],
      scopes: ['openid', 'email'],
    });
    expect(await findOAuthClient(t.database.db, 'grafana-client-id', box)).toEqual({
      clientId: 'grafana-client-id',
      clientSecret: 's3cret-value',
      name: 'Grafana',
      redirectUris: ['https://grafana.example.com/login/generic_oauth'],
      scopes: ['openid', 'email'],
      public: false,
      enabled: true,
    });

    await repo.update('grafana-client-id', { enabled: false });
    expect((await findOAuthClient(t.database.db, 'grafana-client-id', box))?.enabled).toBe(false);
    await repo.delete('grafana-client-id');
    expect(await findOAuthClient(t.database.db, 'grafana-client-id', box)).toBeUndefined();
  });

  it('returns a public client without a secret and nothing for an unknown client ID', async () => {
    await repo.insert({ clientId: 'spa', name: 'SPA', redirectUris: ['http://localhost:3000/cb'], scopes: ['openid'], public: true });
    expect(await findOAuthClient(t.database.db, 'spa', box)).toMatchObject({ clientId: 'spa', clientSecret: undefined, public: true });
    expect(await findOAuthClient(t.database.db, 'nope', box)).toBeUndefined();
  });
});
