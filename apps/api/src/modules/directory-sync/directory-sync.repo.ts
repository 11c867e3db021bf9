import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { events, externalIdentities, externalProviders, groupMembers, groups, users } from '#src/db/schema/index.js';

export type ProviderRow = typeof externalProviders.$inferSelect;

/** A Palisade account as the sync sees it. */
export interface SyncUser {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  isAdmin: boolean;
}

const SYNC_USER_COLUMNS = {
  id: users.id,
  username: users.username,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isActive: users.isActive,
  // `${users}.id` spelled out: drizzle leaves a lone table's columns unqualified, and an unqualified
  // `id` inside the subquery would be the group's.
  isAdmin: sql<boolean>`exists (select 1 from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
    where gm.user_id = ${users}.id and g.is_admin)`,
};

export class DirectorySyncRepo {
  constructor(private readonly db: Db) {}

  /** The configured external provider (the console keeps one at a time). */
  async findProvider(): Promise<ProviderRow | undefined> {
    const [row] = await this.db.select().from(externalProviders).orderBy(externalProviders.id).limit(1);
    return row;
  }

  /** The accounts linked to `provider`, with the directory user id each is linked to. */
  async linkedUsers(provider: string): Promise<(SyncUser & { subject: string })[]> {
    return this.db
      .select({ ...SYNC_USER_COLUMNS, subject: externalIdentities.subject })
      .from(externalIdentities)
      .innerJoin(users, eq(users.id, externalIdentities.userId))
      .where(eq(externalIdentities.provider, provider));
  }

  /** Accounts whose email is one of `emails` (case-insensitive), in batches. */
  async usersByEmail(emails: string[]): Promise<SyncUser[]> {
    const lowered = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
    const out: SyncUser[] = [];
    for (let i = 0; i < lowered.length; i += 5_000) {
      out.push(
        ...(await this.db
          .select(SYNC_USER_COLUMNS)
          .from(users)
          .where(inArray(sql`lower(${users.email})`, lowered.slice(i, i + 5_000)))),
      );
    }
    return out;
  }

  /** Links an account to a directory user (nothing when either side is linked already). */
  async link(userId: number, provider: string, subject: string, email: string): Promise<boolean> {
    const rows = await this.db
      .insert(externalIdentities)
      .values({ userId, provider, subject, email })
      .onConflictDoNothing()
      .returning({ id: externalIdentities.id });
    return rows.length > 0;
  }

  /** Members of the group `groupId`, as user ids. */
  async groupMemberIds(groupId: number): Promise<number[]> {
    const rows = await this.db.select({ userId: groupMembers.userId }).from(groupMembers).where(eq(groupMembers.groupId, groupId));
    return rows.map((r) => r.userId);
  }

  /** When the last sync run ended (the activity log's summary events), so every replica agrees. */
  async lastRunAt(): Promise<Date | undefined> {
    const [row] = await this.db
      .select({ at: events.occurredAt })
      .from(events)
      .where(and(eq(events.module, 'directory'), inArray(events.type, ['directory.sync_completed', 'directory.sync_failed'])))
      .orderBy(desc(events.occurredAt))
      .limit(1);
    return row?.at;
  }

  /** The run's session lock on this connection; false when another replica is syncing. */
  async tryLock(key: number): Promise<boolean> {
    const [row] = await queryRows<{ ok: boolean }>(this.db, sql`select pg_try_advisory_lock(${key}) as ok`);
    return row?.ok === true;
  }

  async unlock(key: number): Promise<void> {
    await this.db.execute(sql`select pg_advisory_unlock(${key})`);
  }
}
