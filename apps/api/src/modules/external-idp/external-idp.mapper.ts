import type { CreateExternalProviderBodySchema, ExternalProvider } from '@palisade/contracts';
import type { z } from 'zod';
import type { SecretBox } from '#src/lib/crypto.js';
import type { ExternalProviderRow, ExternalProviderValues } from './external-idp.repo.js';

export type ProviderBody = z.output<typeof CreateExternalProviderBodySchema>;

export function toExternalProvider(row: ExternalProviderRow): ExternalProvider {
  return {
    kind: row.kind,
    name: row.name,
    client_id: row.clientId,
    client_secret_set: row.clientSecret !== null,
    base_url: row.baseUrl,
    display_name: row.displayName,
    auto_create_account: row.autoCreateAccount,
    username_handling: row.usernameHandling,
    enable_directory_sync: row.enableDirectorySync,
    sync_target: row.syncTarget,
    sync_interval: row.syncInterval,
    user_behavior: row.userBehavior,
    admin_behavior: row.adminBehavior,
    admin_email: row.adminEmail,
    google_service_account_key_set: row.googleServiceAccountKey !== null,
    google_service_account_email: row.googleServiceAccountEmail,
    okta_client_id: row.oktaClientId,
    okta_private_jwk_set: row.oktaPrivateJwk !== null,
    jumpcloud_api_key_set: row.jumpcloudApiKey !== null,
    group_match: row.groupMatch,
  };
}

/**
 * A secret field of a write: absent keeps the stored value (`undefined`: not in the update), ''
 * removes it (null), anything else is sealed.
 */
function sealed(secrets: SecretBox, value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value === '' ? null : secrets.encrypt(value);
}

export function toProviderValues(body: ProviderBody, secrets: SecretBox): Partial<ExternalProviderValues> {
  const values: Partial<ExternalProviderValues> = {
    kind: body.kind,
    name: body.name,
    clientId: body.client_id,
    baseUrl: body.base_url.replace(/\/+$/, ''),
    displayName: body.display_name,
    autoCreateAccount: body.auto_create_account,
    usernameHandling: body.username_handling,
    enableDirectorySync: body.enable_directory_sync,
    syncTarget: body.sync_target,
    syncInterval: body.sync_interval,
    userBehavior: body.user_behavior,
    adminBehavior: body.admin_behavior,
    adminEmail: body.admin_email,
    googleServiceAccountEmail: body.google_service_account_email,
    oktaClientId: body.okta_client_id,
    groupMatch: body.group_match,
  };
  const secretFields = {
    clientSecret: sealed(secrets, body.client_secret),
    googleServiceAccountKey: sealed(secrets, body.google_service_account_key),
    oktaPrivateJwk: sealed(secrets, body.okta_private_jwk),
    jumpcloudApiKey: sealed(secrets, body.jumpcloud_api_key),
  };
  for (const [key, value] of Object.entries(secretFields)) if (value !== undefined) Object.assign(values, { [key]: value });
  return values;
}

/** Which fields a write changed (event details name them; secrets only by name, never by value). */
export function changedFields(before: ExternalProviderRow, after: ExternalProviderRow): string[] {
  const a = toExternalProvider(before) as Record<string, unknown>;
  const b = toExternalProvider(after) as Record<string, unknown>;
  const changed = Object.keys(b).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const secretNames = {
    clientSecret: 'client_secret',
    googleServiceAccountKey: 'google_service_account_key',
    oktaPrivateJwk: 'okta_private_jwk',
    jumpcloudApiKey: 'jumpcloud_api_key',
  } as const;
  for (const [col, name] of Object.entries(secretNames)) {
    const key = col as keyof typeof secretNames;
    if (before[key] !== after[key] && !changed.includes(`${name}_set`)) changed.push(name);
  }
  return changed.sort();
}
