import { eq, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { preparedRows } from '#src/db/rows.js';
import { users } from '#src/db/schema/index.js';

/** A `sub` as Palisade issues it (a UUID): anything else is no user, without asking PostgreSQL. */
const SUB_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OidcUser {
  id: number;
  sub: string;
  username: string;
  isActive: boolean;
}

/** The user behind a `sub`, whether active or not; undefined when deleted. */
export async function findUserBySub(db: Db, sub: string): Promise<OidcUser | undefined> {
  if (!SUB_PATTERN.test(sub)) return undefined;
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

/** A user by `sub` with what the claims are made of: names, email, phone and group names (sorted). */
export interface OidcAccountRow {
  username: string;
  is_active: boolean;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  groups: string[];
}

/*
 * One prepared statement per account lookup: the provider calls findAccount on every grant and
 * userinfo request, then (usually) the account's claims; reading the user and then the claims
 * was two statements built through the query builder (docs/benchmarks.md, OpenID provider).
 */
/** The columns of an OidcAccountRow of `users u` (the token read in provider.repo.ts reads them too). */
export const ACCOUNT_COLUMNS = sql`u.username, u.is_active, u.first_name, u.last_name, u.email, u.phone,
  coalesce((select array_agg(g.name order by g.name) from group_members gm join groups g on g.id = gm.group_id
    where gm.user_id = u.id), '{}') as groups`;

const accountStatement = preparedRows<OidcAccountRow, 'sub'>(
  (p) => sql`select ${ACCOUNT_COLUMNS} from users u where u.oidc_sub = ${p.sub}::uuid limit 1`,
);

/** The user behind a `sub` with their claim sources, whether active or not; undefined when deleted. */
export async function findAccountRow(db: Db, sub: string): Promise<OidcAccountRow | undefined> {
  if (!SUB_PATTERN.test(sub)) return undefined;
  const [row] = await accountStatement(db, { sub });
  return row;
}
