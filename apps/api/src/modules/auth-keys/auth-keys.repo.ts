import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { authKeys, users } from '#src/db/schema/index.js';

export type AuthKeyRow = typeof authKeys.$inferSelect;
export type NewAuthKeyRow = typeof authKeys.$inferInsert;

export const AUTH_KEY_UNIQUE = 'auth_keys_user_fingerprint_key';

/** The `auth_keys` table, always scoped to one user. */
export class AuthKeysRepo {
  constructor(private readonly db: Db) {}

  async userByName(username: string): Promise<{ id: number; username: string; isActive: boolean } | undefined> {
    const [row] = await this.db
      .select({ id: users.id, username: users.username, isActive: users.isActive })
      .from(users)
      .where(eq(users.username, username))
      .limit(1);
    return row;
  }

  list(userId: number, keyType?: 'ssh' | 'gpg'): Promise<AuthKeyRow[]> {
    return this.db
      .select()
      .from(authKeys)
      .where(and(eq(authKeys.userId, userId), keyType === undefined ? undefined : eq(authKeys.keyType, keyType)))
      .orderBy(asc(authKeys.createdAt), asc(authKeys.id));
  }

  async find(userId: number, id: number): Promise<AuthKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(authKeys)
      .where(and(eq(authKeys.userId, userId), eq(authKeys.id, id)))
      .limit(1);
    return row;
  }

  async findByFingerprint(userId: number, fingerprint: string): Promise<AuthKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(authKeys)
      .where(and(eq(authKeys.userId, userId), eq(authKeys.fingerprint, fingerprint)))
      .limit(1);
    return row;
  }

  async insert(row: NewAuthKeyRow): Promise<AuthKeyRow> {
    const [created] = await this.db.insert(authKeys).values(row).returning();
    if (!created) throw new Error('auth key insert returned nothing');
    return created;
  }

  async rename(userId: number, id: number, name: string): Promise<AuthKeyRow | undefined> {
    const [row] = await this.db
      .update(authKeys)
      .set({ name })
      .where(and(eq(authKeys.userId, userId), eq(authKeys.id, id)))
      .returning();
    return row;
  }

  async delete(userId: number, id: number): Promise<AuthKeyRow | undefined> {
    const [row] = await this.db
      .delete(authKeys)
      .where(and(eq(authKeys.userId, userId), eq(authKeys.id, id)))
      .returning();
    return row;
  }
}
