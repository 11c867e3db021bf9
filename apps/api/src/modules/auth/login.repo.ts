import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { preparedRows } from '#src/db/rows.js';
import { authFailures, groupMembers, groups, sessions, users } from '#src/db/schema/index.js';
import { type EventParam, eventInsert, eventParams, type NewEventRow } from '#src/modules/events/events.repo.js';
import type { UserRow } from '#src/modules/users/users.repo.js';

export interface FailurePolicy {
  /** Failures within the window that lock the key. */
  limit: number;
  windowSeconds: number;
  lockSeconds: number;
}

export interface LoginPolicies {
  user: FailurePolicy;
  ip: FailurePolicy;
}

export interface LoginAttempt {
  /** The account the login names (by username or email address), if any. */
  user: UserRow | undefined;
  /** The per-account counter key (`user:<name>`, lower case). */
  userKey: string;
  /** A key was locked before this attempt; nothing was counted. */
  locked: boolean;
  /** Failures in the current windows, this attempt included (0 when locked). */
  userFailures: number;
  ipFailures: number;
}

export interface AttemptRow {
  locked: boolean;
  user_key: string;
  user_failures: number | null;
  ip_failures: number | null;
  id: number | null;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  password_hash: string | null;
  is_active: boolean;
  mfa_enabled: boolean;
  mfa_method: string | null;
  enrolled: boolean;
  ldap_dn: string | null;
  ldap_rdn: string | null;
  language: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const seconds = (n: number) => `${n} seconds`;

/** The policies as the lockout CTEs' parameters. */
export const attemptParams = (ipKey: string, { user: up, ip: ipp }: LoginPolicies): Record<AttemptKey, unknown> => ({
  ipKey,
  userLimit: up.limit,
  userWindow: seconds(up.windowSeconds),
  userLock: seconds(up.lockSeconds),
  ipLimit: ipp.limit,
  ipWindow: seconds(ipp.windowSeconds),
  ipLock: seconds(ipp.lockSeconds),
});

/** A lockout statement's row (`ATTEMPT_COLUMNS` and `found.*`) as a `LoginAttempt`. */
export function toLoginAttempt(row: AttemptRow | undefined): LoginAttempt {
  if (!row) throw new Error('login statement returned no row');
  const user: UserRow | undefined =
    row.id === null
      ? undefined
      : {
          id: row.id,
          username: row.username,
          firstName: row.first_name,
          lastName: row.last_name,
          email: row.email,
          phone: row.phone,
          passwordHash: row.password_hash,
          isActive: row.is_active,
          mfaEnabled: row.mfa_enabled,
          mfaMethod: row.mfa_method,
          enrolled: row.enrolled,
          ldapDn: row.ldap_dn,
          ldapRdn: row.ldap_rdn,
          language: row.language,
          createdAt: new Date(row.created_at),
          updatedAt: new Date(row.updated_at),
        };
  return {
    user,
    userKey: row.user_key,
    locked: row.locked,
    userFailures: Number(row.user_failures ?? 0),
    ipFailures: Number(row.ip_failures ?? 0),
  };
}

/**
 * After a success, when `when` holds: the account's counter cleared, this attempt taken back from
 * the IP counter (lifting a lock it may have set). CTEs `cleared` and `forgiven`. `forgiven` reads
 * `cleared`, so the account's row is locked before the IP's, in the order the attempt count
 * (`counted`: the account's key, then the IP's) locks them: the other way round, a success and a
 * concurrent attempt could each hold one row and wait for the other (a deadlock, seen as 500s
 * when several sign-in steps of one account ran at once).
 */
export const reliefCtes = (p: Record<'userKey' | 'ipKey' | 'ipLimit', unknown>, when: SQL) => sql`cleared as (
          delete from ${authFailures} where key = ${p.userKey} and ${when}
          returning key
        ),
        forgiven as (
          update ${authFailures} set
            failures = greatest(failures - 1, 0),
            locked_until = case when failures - 1 < ${p.ipLimit}::int then null else locked_until end
          where key = ${p.ipKey} and ${when} and (select count(*) from cleared) >= 0
        )`;

export type AttemptKey = 'ipKey' | 'userLimit' | 'userWindow' | 'userLock' | 'ipLimit' | 'ipWindow' | 'ipLock';

/**
 * The lockout CTEs shared by `begin` and `beginStep`: `found` (the account, from `findUser`),
 * `user_key`, `locked` and `counted` (this attempt counted against both keys unless one is locked).
 */
export const attemptCtes = (p: Record<AttemptKey, unknown>, findUser: SQL, login: SQL) => sql`found as (${findUser}),
        user_key as (
          select 'user:' || lower(coalesce((select username from found), ${login})) as key
        ),
        keys as (
          select key from user_key union all select ${p.ipKey}::text
        ),
        locked as (
          select 1 from ${authFailures} f join keys k on k.key = f.key where f.locked_until > now()
        ),
        policy as (
          select k.key,
            case when k.key like 'user:%' then ${p.userLimit}::int else ${p.ipLimit}::int end as lim,
            case when k.key like 'user:%' then ${p.userWindow}::interval else ${p.ipWindow}::interval end as win,
            case when k.key like 'user:%' then ${p.userLock}::interval else ${p.ipLock}::interval end as lck
          from keys k
        ),
        counted as (
          insert into ${authFailures} as f (key, failures, window_started_at, locked_until)
          select p.key, 1, now(), case when 1 >= p.lim then now() + p.lck end
          from policy p where not exists (select 1 from locked)
          on conflict (key) do update set
            failures = case when f.window_started_at < now() - (select win from policy where key = excluded.key) then 1 else f.failures + 1 end,
            window_started_at = case when f.window_started_at < now() - (select win from policy where key = excluded.key)
              then now() else f.window_started_at end,
            locked_until = case
              when (case when f.window_started_at < now() - (select win from policy where key = excluded.key) then 1 else f.failures + 1 end)
                >= (select lim from policy where key = excluded.key)
              then now() + (select lck from policy where key = excluded.key)
              else f.locked_until end
          returning f.key, f.failures
        )`;

export const ATTEMPT_COLUMNS = sql`exists (select 1 from locked) as locked,
          (select key from user_key) as user_key,
          (select failures from counted where key like 'user:%') as user_failures,
          (select failures from counted where key not like 'user:%') as ip_failures`;

/** `begin`'s statement (see there); the policies are values too, so its text never changes. */
const beginStatement = preparedRows<AttemptRow, 'login' | AttemptKey>(
  (p) => sql`with ${attemptCtes(
    p,
    sql`select * from ${users}
          where lower(username) = lower(${p.login}) or lower(email) = lower(${p.login})
          order by lower(username) = lower(${p.login}) desc
          limit 1`,
    sql`${p.login}::text`,
  )}
        select ${ATTEMPT_COLUMNS}, found.*
        from (select 1) one left join found on true`,
);

/**
 * `succeed`'s statement (see there). It commits with `synchronous_commit` off for its own
 * transaction (`set_config(…, true)`), so the backend does not flush and wait for the WAL (its
 * commit flush was about a quarter of the login's PostgreSQL CPU: 0.72 → 0.55 ms per login). What a PostgreSQL crash within the WAL
 * writer's delay (≤ 3 × `wal_writer_delay`, 600 ms by default) can lose is only this statement's
 * effect: the new session (the user signs in again) and the clearing of the counters (they stay
 * higher, the strict side). `begin`, which counts the failures, still commits synchronously, and
 * concurrent statements see the commit at once either way. The login's event (ADR-005) is one
 * more CTE of the same statement, so it commits with the session or not at all.
 */
const succeedStatement = preparedRows<
  { groups: string[]; is_admin: boolean },
  | 'userId'
  | 'userKey'
  | 'ipKey'
  | 'ipLimit'
  | 'create'
  | 'sessionId'
  | 'previousId'
  | 'state'
  | 'ip'
  | 'userAgent'
  | 'expiresAt'
  | EventParam
>(
  (p) => sql`with ${reliefCtes(p, sql`true`)},
        dropped as (
          delete from ${sessions} where ${p.create}::boolean and id = ${p.previousId}::text
        ),
        created as (
          insert into ${sessions} (id, user_id, state, ip, user_agent, expires_at)
          select ${p.sessionId}::text, ${p.userId}::int, ${p.state}::text, ${p.ip}::text,
            ${p.userAgent}::text, ${p.expiresAt}::timestamptz
          where ${p.create}::boolean
        ),
        logged as (${eventInsert(p)})
        select coalesce(array_agg(g.name order by g.name), '{}') as groups, coalesce(bool_or(g.is_admin), false) as is_admin,
          (select set_config('synchronous_commit', 'off', true)) as synchronous_commit
        from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
        where gm.user_id = ${p.userId}::int`,
);

/**
 * The login's database work in two statements (it runs once per login, next to an Argon2
 * verification whose CPU it competes with): one before the password check, one after a success.
 */
export class LoginRepo {
  constructor(private readonly db: Db) {}

  /**
   * Finds the account, checks both failure counters for a lock and, when neither is locked,
   * counts this attempt against both (a new window when the old one has passed; a lock when the
   * limit is reached). Counting before the password check means parallel guesses cannot all pass
   * the lock check before any failure is recorded.
   */
  async begin(login: string, ipKey: string, policies: LoginPolicies): Promise<LoginAttempt> {
    const [row] = await beginStatement(this.db, { login, ...attemptParams(ipKey, policies) });
    return toLoginAttempt(row);
  }

  /**
   * After a correct password: clears the account's counter, takes this attempt back from the IP
   * counter (lifting a lock it may have set), and — when `session` is given — replaces the
   * caller's previous session with a new one, and records `event`. Returns the user's group names
   * and admin flag.
   */
  async succeed(input: {
    userId: number;
    userKey: string;
    ipKey: string;
    ipPolicy: FailurePolicy;
    session?: {
      id: string;
      previousId: string | null;
      state: 'active' | 'mfa_pending';
      ip: string;
      userAgent: string | null;
      expiresAt: Date;
    };
    event: NewEventRow;
  }): Promise<{ groups: string[]; isAdmin: boolean }> {
    const s = input.session;
    const [row] = await succeedStatement(this.db, {
      userId: input.userId,
      userKey: input.userKey,
      ipKey: input.ipKey,
      ipLimit: input.ipPolicy.limit,
      create: s !== undefined,
      sessionId: s?.id ?? null,
      previousId: s?.previousId ?? null,
      state: s?.state ?? null,
      ip: s?.ip ?? null,
      userAgent: s?.userAgent ?? null,
      expiresAt: s?.expiresAt.toISOString() ?? null,
      ...eventParams(input.event),
    });
    return { groups: row?.groups ?? [], isAdmin: row?.is_admin ?? false };
  }
}
