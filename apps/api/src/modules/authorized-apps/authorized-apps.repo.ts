import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { oauthClients, oidcArtifacts, users } from '#src/db/schema/index.js';

/** A live grant of one user to one app, with the app's name. */
export interface GrantRow {
  grantId: string;
  clientId: string;
  name: string;
  payload: Record<string, unknown>;
}

const liveGrant = () => and(eq(oidcArtifacts.model, 'Grant'), or(isNull(oidcArtifacts.expiresAt), gt(oidcArtifacts.expiresAt, sql`now()`)));

/**
 * The grants the OpenID provider stored (`oidc_artifacts`, model `Grant`, `account_id` = the
 * user's `oidc_sub`), read and revoked per user and app.
 */
export class AuthorizedAppsRepo {
  constructor(private readonly db: Db) {}

  async userByName(username: string): Promise<{ id: number; username: string; sub: string } | undefined> {
    const [row] = await this.db
      .select({ id: users.id, username: users.username, sub: users.oidcSub })
      .from(users)
      .where(eq(users.username, username))
      .limit(1);
    return row;
  }

  /** The user's live grants to apps that exist, oldest first. */
  async grantsOf(sub: string, clientId?: string): Promise<GrantRow[]> {
    return this.db
      .select({ grantId: oidcArtifacts.id, clientId: oauthClients.clientId, name: oauthClients.name, payload: oidcArtifacts.payload })
      .from(oidcArtifacts)
      .innerJoin(oauthClients, eq(oauthClients.clientId, oidcArtifacts.clientId))
      .where(and(liveGrant(), eq(oidcArtifacts.accountId, sub), clientId === undefined ? undefined : eq(oidcArtifacts.clientId, clientId)))
      .orderBy(oauthClients.name, oidcArtifacts.id);
  }

  /**
   * Deletes the grants and everything issued under them (authorization codes, access and refresh
   * tokens: every artifact carrying the grant id, the grant row itself included).
   */
  async deleteGrants(grantIds: string[]): Promise<void> {
    if (grantIds.length === 0) return;
    await this.db.delete(oidcArtifacts).where(inArray(oidcArtifacts.grantId, grantIds));
  }
}
