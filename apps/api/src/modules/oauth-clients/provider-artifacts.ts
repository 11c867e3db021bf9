import type { Db } from '#src/db/client.js';

/**
 * Called in the transaction that deletes an OpenID app: removes what the OIDC provider stored for
 * that client (grants, authorization codes, access and refresh tokens, sessions, interactions).
 * The provider's storage arrives with the provider itself (`apps/api/src/oidc`); until it does,
 * there is nothing stored to remove.
 */
export async function removeProviderArtifacts(_tx: Db, _clientId: string): Promise<void> {
  // TODO(oidc provider): delete this client's rows from the provider's adapter table here.
}
