import type { Db } from '#src/db/client.js';
import { externalProviders } from '#src/db/schema/index.js';
import { SecretBox } from '#src/lib/crypto.js';

/** The SECRET_KEY the directory-sync tests give the app, so they can seal the provider's secrets. */
export const TEST_SECRET_KEY = 'directory-sync-test-secret-key-0123456789';
const box = SecretBox.fromSecret(TEST_SECRET_KEY);

export type ProviderValues = Partial<typeof externalProviders.$inferInsert>;

/** Saves the one external provider (replacing any), sealing the secrets given in plain text. */
export async function saveProvider(db: Db, values: ProviderValues & { kind: 'Google' | 'Microsoft' | 'Okta' | 'JumpCloud' | 'Custom' }) {
  const seal = (v: string | null | undefined) => (v ? box.encrypt(v) : v);
  await db.delete(externalProviders);
  await db.insert(externalProviders).values({
    name: values.kind,
    clientId: 'client-id',
    baseUrl: 'https://example.com',
    enableDirectorySync: true,
    syncInterval: 3600,
    ...values,
    clientSecret: seal(values.clientSecret),
    googleServiceAccountKey: seal(values.googleServiceAccountKey),
    oktaPrivateJwk: seal(values.oktaPrivateJwk),
    jumpcloudApiKey: seal(values.jumpcloudApiKey),
  });
}
