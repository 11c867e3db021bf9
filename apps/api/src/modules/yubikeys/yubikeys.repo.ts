import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { authKeys, users, yubikeys } from '#src/db/schema/index.js';

export type YubikeyRow = typeof yubikeys.$inferSelect;

/** The `yubikeys` table, and the card keys (auth keys with a card's serial) that go with a card. */
export class YubikeysRepo {
  constructor(private readonly db: Db) {}

  async userByName(username: string): Promise<{ id: number; username: string } | undefined> {
    const [row] = await this.db.select({ id: users.id, username: users.username }).from(users).where(eq(users.username, username)).limit(1);
    return row;
  }

  list(userId: number): Promise<YubikeyRow[]> {
    return this.db.select().from(yubikeys).where(eq(yubikeys.userId, userId)).orderBy(asc(yubikeys.id));
  }

  async findForUpdate(userId: number, id: number): Promise<YubikeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(yubikeys)
      .where(and(eq(yubikeys.userId, userId), eq(yubikeys.id, id)))
      .for('update');
    return row;
  }

  async rename(id: number, name: string): Promise<YubikeyRow | undefined> {
    const [row] = await this.db.update(yubikeys).set({ name }).where(eq(yubikeys.id, id)).returning();
    return row;
  }

  async delete(userId: number, id: number): Promise<YubikeyRow | undefined> {
    const [row] = await this.db
      .delete(yubikeys)
      .where(and(eq(yubikeys.userId, userId), eq(yubikeys.id, id)))
      .returning();
    return row;
  }

  async deleteBySerial(serial: string): Promise<YubikeyRow | undefined> {
    const [row] = await this.db.delete(yubikeys).where(eq(yubikeys.serial, serial)).returning();
    return row;
  }

  async insert(values: typeof yubikeys.$inferInsert): Promise<YubikeyRow> {
    const [row] = await this.db.insert(yubikeys).values(values).returning();
    if (!row) throw new Error('yubikey insert returned nothing');
    return row;
  }

  /** Deletes a card's keys: the authentication keys of its user that carry its serial. */
  async deleteCardKeys(row: YubikeyRow): Promise<number> {
    const deleted = await this.db
      .delete(authKeys)
      .where(and(eq(authKeys.userId, row.userId), eq(authKeys.serial, row.serial)))
      .returning({ id: authKeys.id });
    return deleted.length;
  }
}
