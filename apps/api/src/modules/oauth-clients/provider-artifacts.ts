import type { Db } from '#src/db/client.js';
import { deleteClientArtifacts } from '#src/oidc/provider.repo.js';

/**
 * Called in the transaction that deletes an OpenID app: removes what the OIDC provider stored for
 * that client (grants, authorization codes, access and refresh tokens, waiting interactions).
 */
export async function removeProviderArtifacts(tx: Db, clientId: string): Promise<void> {
  await deleteClientArtifacts(tx, clientId);
}
