import type { AdapterPayload } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { findOAuthClientRow } from './provider.repo.js';

/** What the provider may ask for beyond the registered scopes: refresh tokens are offline access. */
const IMPLIED_SCOPES = ['offline_access'];

/**
 * The client metadata oidc-provider sees for an app of the `oauth_clients` table, read on every
 * lookup: a disabled or deleted app is unknown at once. Confidential apps authenticate with HTTP
 * Basic (`client_secret_basic`), public apps with PKCE only (`none`).
 */
export async function findClientMetadata(db: Db, secrets: SecretBox, clientId: string): Promise<AdapterPayload | undefined> {
  const app = await findOAuthClientRow(db, clientId);
  if (!app?.enabled) return undefined;
  const secret = !app.public && app.clientSecretEnc ? secrets.decrypt(app.clientSecretEnc) : undefined;
  return {
    client_id: app.clientId,
    client_name: app.name,
    redirect_uris: app.redirectUris,
    post_logout_redirect_uris: app.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: [...app.scopes, ...IMPLIED_SCOPES].join(' '),
    ...(secret ? { client_secret: secret, token_endpoint_auth_method: 'client_secret_basic' } : { token_endpoint_auth_method: 'none' }),
  };
}
