import type { AdapterPayload } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { findClientRow } from './provider.repo.js';

/** What the provider may ask for beyond the registered scopes: refresh tokens are offline access. */
const IMPLIED_SCOPES = ['offline_access'];

/** Most sealed secrets kept opened per SecretBox; beyond it the memo starts over. */
const OPENED_SECRETS_MAX = 256;
const openedSecrets = new WeakMap<SecretBox, Map<string, string>>();

/**
 * The plain secret of a sealed one, remembered by the sealed text. The sealed text is read from
 * the database on every lookup, and regenerating a secret seals the new one with a fresh random
 * nonce, so the memo can never answer for a secret that is no longer the app's: it only saves
 * the AES-GCM opening of the same sealed text again (on any replica). The provider keeps the plain
 * secret of its recently used clients in memory anyway (its client cache).
 */
function openSecret(secrets: SecretBox, sealed: string): string {
  let opened = openedSecrets.get(secrets);
  if (!opened) {
    opened = new Map();
    openedSecrets.set(secrets, opened);
  }
  let plain = opened.get(sealed);
  if (plain === undefined) {
    plain = secrets.decrypt(sealed);
    if (opened.size >= OPENED_SECRETS_MAX) opened.clear();
    opened.set(sealed, plain);
  }
  return plain;
}

/**
 * The client metadata oidc-provider sees for an app of the `oauth_clients` table, read on every
 * lookup: a disabled or deleted app is unknown at once. Confidential apps authenticate with HTTP
 * Basic (`client_secret_basic`), public apps with PKCE only (`none`).
 */
export async function findClientMetadata(db: Db, secrets: SecretBox, clientId: string): Promise<AdapterPayload | undefined> {
  const app = await findClientRow(db, clientId);
  if (!app?.enabled) return undefined;
  const secret = !app.public && app.client_secret_enc ? openSecret(secrets, app.client_secret_enc) : undefined;
  return {
    client_id: app.client_id,
    client_name: app.name,
    redirect_uris: app.redirect_uris,
    post_logout_redirect_uris: app.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: [...app.scopes, ...IMPLIED_SCOPES].join(' '),
    ...(secret ? { client_secret: secret, token_endpoint_auth_method: 'client_secret_basic' } : { token_endpoint_auth_method: 'none' }),
  };
}
