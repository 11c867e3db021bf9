import { gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { oidcSigningKeys } from '#src/db/schema/index.js';

export type SigningKeyRow = typeof oidcSigningKeys.$inferSelect;
export type NewSigningKey = Pick<SigningKeyRow, 'kid' | 'alg' | 'privateJwkEnc' | 'activatesAt'>;

const lockKeys = (tx: Db) => tx.execute(sql`select pg_advisory_xact_lock(hashtext('palisade:oidc-signing-keys'))`);

/** Inserts `make()`'s keys when there are none yet, once across replicas (transaction-scoped advisory lock). */
export async function insertFirstKeys(db: Db, make: () => NewSigningKey[]): Promise<void> {
  await db.transaction(async (tx) => {
    await lockKeys(tx as unknown as Db);
    const [any] = await tx.select({ kid: oidcSigningKeys.kid }).from(oidcSigningKeys).limit(1);
    if (!any) await tx.insert(oidcSigningKeys).values(make());
  });
}

/** Rotation: the keys signing after `activatesAt` stop then; the new keys start then. */
export async function insertRotatedKeys(db: Db, activatesAt: Date, keys: NewSigningKey[]): Promise<void> {
  await db.transaction(async (tx) => {
    await lockKeys(tx as unknown as Db);
    await tx
      .update(oidcSigningKeys)
      .set({ retiresAt: activatesAt })
      .where(or(isNull(oidcSigningKeys.retiresAt), gt(oidcSigningKeys.retiresAt, activatesAt)));
    await tx.insert(oidcSigningKeys).values(keys);
  });
}

/** Keys not retired before `cutoff`, newest activation first. */
export async function keysSince(db: Db, cutoff: Date): Promise<SigningKeyRow[]> {
  return db
    .select()
    .from(oidcSigningKeys)
    .where(or(isNull(oidcSigningKeys.retiresAt), gt(oidcSigningKeys.retiresAt, cutoff)))
    .orderBy(sql`${oidcSigningKeys.activatesAt} desc`);
}
