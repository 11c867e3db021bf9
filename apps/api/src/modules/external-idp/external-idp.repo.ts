import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { externalIdentities, externalProviders } from '#src/db/schema/index.js';

export type ExternalProviderRow = typeof externalProviders.$inferSelect;
export type ExternalProviderValues = Omit<typeof externalProviders.$inferInsert, 'id' | 'createdAt'>;

/** The provider table and the users' identities at providers (docs/external-openid.md). */
export class ExternalIdpRepo {
  constructor(private readonly db: Db) {}

  /** The configured provider: the console offers one at a time, so the oldest row. */
  async current(): Promise<ExternalProviderRow | undefined> {
    const [row] = await this.db.select().from(externalProviders).orderBy(externalProviders.id).limit(1);
    return row;
  }

  /** Serialises provider creations until the transaction ends (one provider at a time). */
  async lockCreation(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext('palisade.external_provider.create'))`);
  }

  async findByName(name: string): Promise<ExternalProviderRow | undefined> {
    const [row] = await this.db.select().from(externalProviders).where(eq(externalProviders.name, name)).limit(1);
    return row;
  }

  async insert(values: ExternalProviderValues): Promise<ExternalProviderRow> {
    const [row] = await this.db.insert(externalProviders).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, values: Partial<ExternalProviderValues>): Promise<ExternalProviderRow | undefined> {
    const [row] = await this.db
      .update(externalProviders)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(externalProviders.id, id))
      .returning();
    return row;
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(externalProviders).where(eq(externalProviders.id, id));
  }

  /** The user linked to `subject` at `provider`. */
  async findIdentity(provider: string, subject: string): Promise<{ userId: number } | undefined> {
    const [row] = await this.db
      .select({ userId: externalIdentities.userId })
      .from(externalIdentities)
      .where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, subject)))
      .limit(1);
    return row;
  }

  async link(userId: number, provider: string, subject: string, email: string | null): Promise<void> {
    await this.db.insert(externalIdentities).values({ userId, provider, subject, email }).onConflictDoNothing();
  }
}
