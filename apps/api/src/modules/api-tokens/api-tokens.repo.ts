import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { preparedRows } from '#src/db/rows.js';
import { apiTokens, groupMembers, groups, users } from '#src/db/schema/index.js';

export type ApiTokenRow = Pick<typeof apiTokens.$inferSelect, 'id' | 'name' | 'createdAt' | 'lastUsedAt'>;

/** The owner a Bearer token authenticates as, with the stored hash to compare against. */
export interface TokenOwnerRow {
  token_pk: number;
  token_hash: string;
  last_used_at: Date | string | null;
  user_id: number;
  username: string;
  is_admin: boolean;
}

// Every Bearer request runs this: one hand-written statement, prepared once. The admin flag comes
// from the owner's groups now; a disabled owner finds no row.
const findTokenOwner = preparedRows<TokenOwnerRow, 'tokenId'>(
  (p) => sql`select t.id as token_pk, t.token_hash, t.last_used_at, u.id as user_id, u.username,
      exists (select 1 from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
              where gm.user_id = u.id and g.is_admin) as is_admin
    from ${apiTokens} t join ${users} u on u.id = t.user_id
    where t.token_id = ${p.tokenId} and u.is_active`,
);

// Moves last_used_at at most once a minute, whatever other requests do meanwhile.
const touchToken = preparedRows<never, 'id'>(
  (p) => sql`update ${apiTokens} set last_used_at = now()
    where id = ${p.id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
);

const columns = { id: apiTokens.id, name: apiTokens.name, createdAt: apiTokens.createdAt, lastUsedAt: apiTokens.lastUsedAt };

export class ApiTokensRepo {
  constructor(private readonly db: Db) {}

  async userByName(username: string): Promise<{ id: number; username: string } | undefined> {
    const [row] = await this.db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${username})`)
      .limit(1);
    return row;
  }

  listFor(userId: number): Promise<ApiTokenRow[]> {
    return this.db.select(columns).from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
  }

  async insert(values: { userId: number; name: string; tokenId: string; tokenHash: string }): Promise<ApiTokenRow> {
    const [row] = await this.db.insert(apiTokens).values(values).returning(columns);
    if (!row) throw new Error('api token insert returned nothing');
    return row;
  }

  async rename(userId: number, id: number, name: string): Promise<{ row: ApiTokenRow; oldName: string } | undefined> {
    const [old] = await this.db
      .select({ name: apiTokens.name })
      .from(apiTokens)
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
      .for('update');
    if (!old) return undefined;
    const [row] = await this.db.update(apiTokens).set({ name }).where(eq(apiTokens.id, id)).returning(columns);
    return row ? { row, oldName: old.name } : undefined;
  }

  async delete(userId: number, id: number): Promise<ApiTokenRow | undefined> {
    const [row] = await this.db
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
      .returning(columns);
    return row;
  }

  async findOwner(tokenId: string): Promise<TokenOwnerRow | undefined> {
    const [row] = await findTokenOwner(this.db, { tokenId });
    return row;
  }

  async touch(id: number): Promise<void> {
    await touchToken(this.db, { id });
  }
}
