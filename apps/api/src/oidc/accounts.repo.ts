import { eq, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { users } from '#src/db/schema/index.js';

export interface OidcUser {
  id: number;
  sub: string;
  username: string;
  isActive: boolean;
}

/** The user behind a `sub`, whether active or not; undefined when deleted. */
export async function findUserBySub(db: Db, sub: string): Promise<OidcUser | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(sub)) return undefined;
  const [row] = await db
    .select({ id: users.id, sub: users.oidcSub, username: users.username, isActive: users.isActive })
    .from(users)
    .where(eq(users.oidcSub, sub))
    .limit(1);
  return row;
}

/** The `sub` of a user by id (the console session's user). */
export async function subOfUser(db: Db, userId: number): Promise<string | undefined> {
  const [row] = await db.select({ sub: users.oidcSub }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.sub;
}

/** What the claims are made of: names, email, phone and group names (sorted). */
export async function claimSource(db: Db, userId: number) {
  const [row] = await db
    .select({
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      groups: sql<
        string[]
      >`coalesce((select array_agg(g.name order by g.name) from group_members gm join groups g on g.id = gm.group_id where gm.user_id = ${userId}::int), '{}')`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
