import type { UserListQuery } from '@palisade/contracts';
import { and, asc, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import type { Db } from '#src/db/client.js';
import { countRows, totalOf } from '#src/db/row-counts.js';
import { preparedRows, queryRows, TIMESTAMPS_AS_TEXT } from '#src/db/rows.js';
import { groupMembers, groups, users } from '#src/db/schema/index.js';
import { EventsRepo } from '#src/modules/events/events.repo.js';
import { type DomainEvent, toEventRow } from '#src/modules/events/record-event.js';

/** A user row; `oidc_sub` is the OpenID provider's business (oidc/account.ts). */
export type UserRow = Omit<typeof users.$inferSelect, 'oidcSub'>;
export interface UserRecord extends UserRow {
  groups: string[];
  isAdmin: boolean;
}

const adminMembership = (userId: SQL | typeof users.id) => sql`exists (
  select 1 from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
  where gm.user_id = ${userId} and g.is_admin)`;

const SORTS = {
  username: sql`lower(${users.username})`,
  last_name: sql`lower(${users.lastName})`,
  email: sql`lower(${users.email})`,
  created_at: sql`${users.createdAt}`,
} as const;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A user as the paged list reads it: driver columns, groups aggregated, no password hash. */
export interface UserListRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  is_active: boolean;
  mfa_enabled: boolean;
  mfa_method: string | null;
  enrolled: boolean;
  has_password: boolean;
  language: string | null;
  created_at: Date | string;
  groups: string[];
  is_admin: boolean;
}

function listWhere(query: Pick<UserListQuery, 'filter' | 'search'>, pattern: unknown): SQL {
  const conditions: SQL[] = [];
  if (query.search) {
    conditions.push(sql`(lower(${users.username}) like ${pattern} or lower(${users.firstName}) like ${pattern}
      or lower(${users.lastName}) like ${pattern} or lower(${users.email}) like ${pattern}
      or lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern})`);
  }
  if (query.filter === 'admins') conditions.push(adminMembership(users.id));
  if (query.filter === 'users') conditions.push(sql`not ${adminMembership(users.id)}`);
  return conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
}

type ListRun = (
  db: Db,
  values: { perPage: number; offset: number; pattern: string | null },
) => Promise<(UserListRow & { total: string | number })[]>;
const listStatements = new Map<string, ListRun>();

/** The list statement of the query's shape (at most 4 sorts × 2 directions × 3 filters × search or not). */
function listStatement(query: UserListQuery): ListRun {
  const key = `${query.sort}|${query.filter}|${query.search ? 'search' : ''}`;
  let run = listStatements.get(key);
  if (!run) {
    const shape = { filter: query.filter, search: query.search };
    run = preparedRows<UserListRow & { total: string | number }, 'perPage' | 'offset' | 'pattern'>(
      (p) => {
        const where = listWhere(shape, p.pattern);
        const direction = query.sort.startsWith('-') ? sql`desc` : sql`asc`;
        const column = SORTS[query.sort.replace(/^-/, '') as keyof typeof SORTS];
        // Unfiltered, the total is the trigger-kept count (migration 0005) rather than a scan.
        const total = totalOf(users, where, shape.search || shape.filter !== 'all' ? undefined : 'users');
        return sql`select p.id, p.username, p.first_name, p.last_name, p.email, p.phone, p.is_active, p.mfa_enabled,
          p.mfa_method, p.enrolled, p.has_password, p.language, p.created_at,
          coalesce(gs.groups, '{}') as groups, coalesce(gs.is_admin, false) as is_admin,
          ${total} as total
        from (
          select ${users.id}, ${users.username}, ${users.firstName}, ${users.lastName}, ${users.email}, ${users.phone},
            ${users.isActive}, ${users.mfaEnabled}, ${users.mfaMethod}, ${users.enrolled},
            ${users.passwordHash} is not null as has_password, ${users.language}, ${users.createdAt}, ${column} as sort_key
          from ${users} ${where}
          order by ${column} ${direction}, ${users.id}
          limit ${p.perPage} offset ${p.offset}
        ) p
        left join lateral (
          select array_agg(g.name order by g.name) as groups, bool_or(g.is_admin) as is_admin
          from ${groupMembers} gm join ${groups} g on g.id = gm.group_id where gm.user_id = p.id
        ) gs on true
        order by p.sort_key ${direction}, p.id`;
      },
      { types: TIMESTAMPS_AS_TEXT },
    );
    listStatements.set(key, run);
  }
  return run;
}

export class UsersRepo {
  constructor(private readonly db: Db) {}

  async findByUsername(username: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1);
    return row;
  }

  /** Users whose name matches one of `usernames`, case-insensitively, in one query. */
  async findManyByUsername(usernames: string[]): Promise<Pick<UserRow, 'id' | 'username'>[]> {
    if (usernames.length === 0) return [];
    const lowered = [...new Set(usernames.map((u) => u.toLowerCase()))];
    return this.db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(inArray(sql`lower(${users.username})`, lowered));
  }

  /** Login accepts the username or the email address. */
  async findByLogin(login: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(or(sql`lower(${users.username}) = lower(${login})`, sql`lower(${users.email}) = lower(${login})`))
      .orderBy(sql`lower(${users.username}) = lower(${login}) desc`)
      .limit(1);
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
    return row;
  }

  async findById(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  /** A user with their groups in one round trip (`GET /me` runs it on every console load). */
  async findRecordById(id: number): Promise<UserRecord | undefined> {
    const [row] = await this.db
      .select({
        ...getTableColumns(users),
        // `${users}.id`, not `${users.id}`: Drizzle writes a one-table select's columns unqualified,
        // and inside these subqueries a bare "id" would be the group's.
        groups: sql<string[]>`coalesce((select array_agg(g.name order by g.name) from ${groupMembers} gm
          join ${groups} g on g.id = gm.group_id where gm.user_id = ${users}.id), '{}')`,
        isAdmin: sql<boolean>`${adminMembership(sql`${users}.id`)}`,
      })
      .from(users)
      .where(eq(users.id, id));
    return row;
  }

  async withGroups(rows: UserRow[]): Promise<UserRecord[]> {
    if (rows.length === 0) return [];
    const memberships = await this.db
      .select({ userId: groupMembers.userId, name: groups.name, isAdmin: groups.isAdmin })
      .from(groupMembers)
      .innerJoin(groups, eq(groups.id, groupMembers.groupId))
      .where(
        inArray(
          groupMembers.userId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(groups.name));
    return rows.map((row) => {
      const mine = memberships.filter((m) => m.userId === row.id);
      return { ...row, groups: mine.map((m) => m.name), isAdmin: mine.some((m) => m.isAdmin) };
    });
  }

  /**
   * One page of users with their groups and the total, in one statement: the page walks an index
   * in sort order and stops after `per_page` rows (the total is a scalar count, not
   * `count(*) over ()`, which would make every page sort all matching users); group names are
   * aggregated per user of the page. One prepared statement per shape (sort, filter, search).
   */
  async list(query: UserListQuery): Promise<{ rows: UserListRow[]; total: number }> {
    const offset = (query.page - 1) * query.per_page;
    const pattern = query.search ? `%${escapeLike(query.search.toLowerCase())}%` : null;
    const rows = await listStatement(query)(this.db, { perPage: query.per_page, offset, pattern });
    // A page past the end has no row to carry the total.
    const counted = rows[0] ? Number(rows[0].total) : offset === 0 ? 0 : await countRows(this.db, users, listWhere(query, pattern));
    return { rows, total: counted };
  }

  async insert(values: typeof users.$inferInsert): Promise<UserRow> {
    const [row] = await this.db.insert(users).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, values: Partial<typeof users.$inferInsert>): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /** `update` and the events it causes in one statement (no transaction needed; ADR-005). */
  async updateRecording(id: number, values: Partial<typeof users.$inferInsert>, events: DomainEvent[]): Promise<void> {
    const update = this.db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, id))
      .getSQL();
    // Named and prepared per connection: the statement's text depends only on the columns set.
    await queryRows(this.db, new EventsRepo(this.db).withEvents(update, events.map(toEventRow)));
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(users).where(eq(users.id, id));
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(users);
    return row?.n ?? 0;
  }

  /** Active users that are members of at least one admin group. */
  async countActiveAdmins(excludingUserId?: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(users)
      .where(
        and(
          eq(users.isActive, true),
          adminMembership(users.id),
          excludingUserId === undefined ? undefined : sql`${users.id} <> ${excludingUserId}`,
        ),
      );
    return row?.n ?? 0;
  }

  /** Serialises changes that could remove the last admin (held until the transaction ends). */
  async lockAdminInvariant(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS.adminInvariant})`);
  }
}
