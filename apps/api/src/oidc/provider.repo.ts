import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import { oauthClients, oidcArtifacts } from '#src/db/schema/index.js';

/** A live row: not expired. Expired rows stay until the purge job deletes them, but never count. */
const live = () => or(isNull(oidcArtifacts.expiresAt), gt(oidcArtifacts.expiresAt, sql`now()`));

function rowPayload(row: { payload: Record<string, unknown>; consumedAt: Date | null }): AdapterPayload {
  const payload = row.payload as AdapterPayload;
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

/**
 * oidc-provider's storage interface on the `oidc_artifacts` table, one class per model (the
 * provider constructs it with the model name). No state in the process: every replica reads the
 * same rows. Clients are not stored here: `Client` reads the admins' `oauth_clients` table.
 */
export function databaseAdapter(
  db: Db,
  findClient: (clientId: string) => Promise<AdapterPayload | undefined>,
): new (
  model: string,
) => Adapter {
  return class DatabaseAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const values = {
        payload: payload as Record<string, unknown>,
        // A grant is its own grant id, so revoking a grant removes it with its tokens.
        grantId: this.model === 'Grant' ? id : (payload.grantId ?? null),
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        accountId: payload.accountId ?? null,
        clientId: payload.clientId ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(oidcArtifacts)
        .values({ model: this.model, id, ...values })
        .onConflictDoUpdate({ target: [oidcArtifacts.model, oidcArtifacts.id], set: values });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return findClient(id);
      return this.#findWhere(eq(oidcArtifacts.id, id));
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.#findWhere(eq(oidcArtifacts.uid, uid));
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.#findWhere(eq(oidcArtifacts.userCode, userCode));
    }

    async #findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcArtifacts.payload, consumedAt: oidcArtifacts.consumedAt })
        .from(oidcArtifacts)
        .where(and(eq(oidcArtifacts.model, this.model), condition, live()))
        .limit(1);
      return row ? rowPayload(row) : undefined;
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcArtifacts)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(oidcArtifacts.model, this.model), eq(oidcArtifacts.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcArtifacts).where(and(eq(oidcArtifacts.model, this.model), eq(oidcArtifacts.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcArtifacts).where(eq(oidcArtifacts.grantId, grantId));
    }
  };
}

/** Deletes up to `batch` expired artifacts; resolves to the number deleted (oidc-purge job). */
export async function purgeExpiredArtifacts(db: Db, batch: number): Promise<number> {
  const deleted = await db
    .delete(oidcArtifacts)
    .where(
      sql`(${oidcArtifacts.model}, ${oidcArtifacts.id}) in (select model, id from oidc_artifacts where expires_at < now() limit ${batch})`,
    )
    .returning({ id: oidcArtifacts.id });
  return deleted.length;
}

/** The live grant a user gave an app (the newest), if any: earlier consent is remembered by it. */
export async function findGrantId(db: Db, accountId: string, clientId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: oidcArtifacts.id })
    .from(oidcArtifacts)
    .where(and(eq(oidcArtifacts.model, 'Grant'), eq(oidcArtifacts.accountId, accountId), eq(oidcArtifacts.clientId, clientId), live()))
    .orderBy(desc(oidcArtifacts.expiresAt))
    .limit(1);
  return row?.id;
}

/** An app of the admins' `oauth_clients` table by client ID. */
export async function findOAuthClientRow(db: Db, clientId: string) {
  const [app] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
  return app;
}

/**
 * Deletes what the provider stored for an app (its grants with their codes and tokens, its waiting
 * interactions): called in the transaction that deletes the app.
 */
export async function deleteClientArtifacts(db: Db, clientId: string): Promise<void> {
  await db
    .delete(oidcArtifacts)
    .where(
      or(
        eq(oidcArtifacts.clientId, clientId),
        sql`${oidcArtifacts.grantId} in (select id from oidc_artifacts where model = 'Grant' and client_id = ${clientId})`,
        and(eq(oidcArtifacts.model, 'Interaction'), sql`${oidcArtifacts.payload}->'params'->>'client_id' = ${clientId}`),
      ),
    );
}
