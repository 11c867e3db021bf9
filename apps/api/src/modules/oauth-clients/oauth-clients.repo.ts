import { asc, eq } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { oauthClients } from '#src/db/schema/index.js';
import type { SecretBox } from '#src/lib/crypto.js';

export type OAuthClientRow = typeof oauthClients.$inferSelect;

/** What the OIDC provider needs to know about a client (the secret decrypted). */
export interface OAuthClientLookup {
  clientId: string;
  /** Undefined for public clients. */
  clientSecret: string | undefined;
  name: string;
  redirectUris: string[];
  scopes: string[];
  public: boolean;
  enabled: boolean;
}

/**
 * Reads one client by its client ID straight from the table (no cache), so disabling or deleting
 * an app takes effect on the provider's next lookup.
 */
export async function findOAuthClient(db: Db, clientId: string, secrets: SecretBox): Promise<OAuthClientLookup | undefined> {
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
  if (!row) return undefined;
  return {
    clientId: row.clientId,
    clientSecret: row.clientSecretEnc === null ? undefined : secrets.decrypt(row.clientSecretEnc),
    name: row.name,
    redirectUris: row.redirectUris,
    scopes: row.scopes,
    public: row.public,
    enabled: row.enabled,
  };
}

export class OAuthClientsRepo {
  constructor(private readonly db: Db) {}

  list(): Promise<OAuthClientRow[]> {
    return this.db.select().from(oauthClients).orderBy(asc(oauthClients.name), asc(oauthClients.id));
  }

  async find(clientId: string): Promise<OAuthClientRow | undefined> {
    const [row] = await this.db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
    return row;
  }

  /** Locks the row for the rest of the transaction (update, delete and state changes). */
  async findForUpdate(clientId: string): Promise<OAuthClientRow | undefined> {
    const [row] = await this.db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).for('update');
    return row;
  }

  async insert(values: typeof oauthClients.$inferInsert): Promise<OAuthClientRow> {
    const [row] = await this.db.insert(oauthClients).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(clientId: string, values: Partial<typeof oauthClients.$inferInsert>): Promise<OAuthClientRow> {
    const [row] = await this.db
      .update(oauthClients)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(oauthClients.clientId, clientId))
      .returning();
    if (!row) throw new Error('update returned no row');
    return row;
  }

  async delete(clientId: string): Promise<void> {
    await this.db.delete(oauthClients).where(eq(oauthClients.clientId, clientId));
  }
}
