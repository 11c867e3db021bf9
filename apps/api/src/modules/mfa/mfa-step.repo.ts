import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { preparedRows } from '#src/db/rows.js';
import { groupMembers, groups, mfaMethods, mfaTotp, sessions, users } from '#src/db/schema/index.js';
import {
  ATTEMPT_COLUMNS,
  type AttemptKey,
  type AttemptRow,
  attemptCtes,
  attemptParams,
  type FailurePolicy,
  type LoginAttempt,
  type LoginPolicies,
  reliefCtes,
  toLoginAttempt,
} from '#src/modules/auth/login.repo.js';
import { type EventParam, eventInsert, eventParams, type NewEventRow } from '#src/modules/events/events.repo.js';

/**
 * The MFA sign-in step's database work in two statements (after the session lookup), so that the
 * step is a cheap route (issue 10 §6; bench/totp.ts, docs/benchmarks.md):
 *
 * 1. `begin`: the password step's lockout statement (the same CTEs: the attempt counted against
 *    the account and the IP before any code is checked), finding the account by the pending
 *    session's user id, and reading the sealed TOTP secret and last accepted step with it.
 * 2. `succeed`: after a passed check, the TOTP replay mark, the spending of the pending session,
 *    the counters' relief, the new session and the login event, all or nothing, with an
 *    asynchronous commit (as the password login's success statement).
 *
 * The attempt count commits asynchronously too (`synchronous_commit` off for its transaction). The
 * lockout's correctness does not rest on the commit mode: the count is visible to every other
 * statement the moment it commits, and the row lock of the upsert orders concurrent attempts.
 * What an asynchronous commit alone would give up is crash durability: a PostgreSQL crash (not an
 * API restart) within the WAL writer's delay (≤ 3 × `wal_writer_delay`, 600 ms by default) could
 * forget the increment. It does not here for any attempt that was answered as a failure: the
 * refusal records `auth.login_failed` (or `auth.locked_out`) in a statement that commits
 * synchronously after the count, and that flush writes the WAL up to its own commit, the count's
 * included (the WAL is one sequence), before the 400 goes out. Keep that event's commit
 * synchronous. Exposed are only a successful step's count (which its success statement clears
 * anyway) and attempts still unanswered when the server crashes (their sender learns nothing).
 * The password step's `begin` keeps its synchronous commit (next to an Argon2 verification it
 * costs nothing noticeable); for the code step the flushes were the largest single cost
 * (docs/benchmarks.md).
 */

interface StepRow extends AttemptRow {
  totp_secret: string | null;
  totp_last_step: string | number | null;
}

/** The account by id; its counter key from the username the session was made for should it be gone. */
const beginStatement = preparedRows<StepRow, 'userId' | 'username' | AttemptKey>(
  (p) => sql`with ${attemptCtes(p, sql`select * from ${users} where id = ${p.userId}::int`, sql`${p.username}::text`)}
        select ${ATTEMPT_COLUMNS}, found.*, t.secret as totp_secret, t.last_step as totp_last_step,
          (select set_config('synchronous_commit', 'off', true)) as synchronous_commit
        from (select 1) one left join found on true
        left join ${mfaTotp} t on t.user_id = found.id
          and exists (select 1 from ${mfaMethods} m where m.user_id = found.id and m.method = 'totp')`,
);

type SucceedKey =
  | 'userId'
  | 'userKey'
  | 'ipKey'
  | 'ipLimit'
  | 'pendingId'
  | 'totpStep'
  | 'sessionId'
  | 'ip'
  | 'userAgent'
  | 'expiresAt'
  | EventParam;

/**
 * `succeed`'s statement. `pending` locks the pending session first: of two steps racing on it the
 * second waits and then finds it gone (READ COMMITTED skips a row deleted meanwhile). `marked`
 * records the TOTP step only while the pending session is held and the step is later than the last
 * accepted one (two steps of the same user, from two pending sessions, serialise on the
 * `mfa_totp` row: the second sees the first's step and marks nothing). Everything else happens
 * only when `spent` deleted the pending session, and `spent` needs the mark when a step is given:
 * a declined statement writes nothing.
 */
const succeedStatement = preparedRows<{ held: boolean; spent: boolean; groups: string[]; is_admin: boolean }, SucceedKey>(
  (p) => sql`with pending as materialized (
          select id from ${sessions}
          where id = ${p.pendingId}::text and user_id = ${p.userId}::int and state = 'mfa_pending'
          for update
        ),
        marked as (
          update ${mfaTotp} set last_step = ${p.totpStep}::bigint
          where user_id = ${p.userId}::int and ${p.totpStep}::bigint is not null
            and (last_step is null or last_step < ${p.totpStep}::bigint)
            and exists (select 1 from pending)
          returning user_id
        ),
        spent as (
          delete from ${sessions}
          where id in (select id from pending) and (${p.totpStep}::bigint is null or exists (select 1 from marked))
          returning id
        ),
        ${reliefCtes(p, sql`exists (select 1 from spent)`)},
        created as (
          insert into ${sessions} (id, user_id, state, mfa_passed, ip, user_agent, expires_at)
          select ${p.sessionId}::text, ${p.userId}::int, 'active', true, ${p.ip}::text, ${p.userAgent}::text, ${p.expiresAt}::timestamptz
          where exists (select 1 from spent)
        ),
        logged as (${eventInsert(p, sql`exists (select 1 from spent)`)})
        select exists (select 1 from pending) as held, exists (select 1 from spent) as spent,
          (select coalesce(array_agg(g.name order by g.name), '{}') from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
            where gm.user_id = ${p.userId}::int) as groups,
          (select coalesce(bool_or(g.is_admin), false) from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
            where gm.user_id = ${p.userId}::int) as is_admin,
          (select set_config('synchronous_commit', 'off', true)) as synchronous_commit`,
);

export interface StepAttempt extends LoginAttempt {
  /** The enabled TOTP's sealed secret and last accepted step, when TOTP is enabled. */
  totp: { secret: string; lastStep: number | null } | undefined;
}

/** Why `succeed` declined: the pending session was spent meanwhile, or the TOTP step was accepted already. */
export type StepOutcome = { ok: true; groups: string[]; isAdmin: boolean } | { ok: false; reason: 'pending_spent' | 'step_replayed' };

export class MfaStepRepo {
  constructor(private readonly db: Db) {}

  /** Counts the attempt (the login lockout) and reads the account and its TOTP secret. */
  async begin(user: { userId: number; username: string }, ipKey: string, policies: LoginPolicies): Promise<StepAttempt> {
    const [row] = await beginStatement(this.db, { userId: user.userId, username: user.username, ...attemptParams(ipKey, policies) });
    const attempt = toLoginAttempt(row);
    const totp = row?.totp_secret
      ? { secret: row.totp_secret, lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step) }
      : undefined;
    return { ...attempt, totp };
  }

  /**
   * After a passed check: marks `totpStep` (when given) as accepted, spends the pending session,
   * clears the account's counter and takes this attempt back from the IP counter, creates the
   * active session and records `event` — or, when the pending session is gone or the step was
   * accepted meanwhile, nothing at all.
   */
  async succeed(input: {
    userId: number;
    userKey: string;
    ipKey: string;
    ipPolicy: FailurePolicy;
    pendingId: string;
    totpStep: number | null;
    session: { id: string; ip: string; userAgent: string | null; expiresAt: Date };
    event: NewEventRow;
  }): Promise<StepOutcome> {
    const [row] = await succeedStatement(this.db, {
      userId: input.userId,
      userKey: input.userKey,
      ipKey: input.ipKey,
      ipLimit: input.ipPolicy.limit,
      pendingId: input.pendingId,
      totpStep: input.totpStep,
      sessionId: input.session.id,
      ip: input.session.ip,
      userAgent: input.session.userAgent,
      expiresAt: input.session.expiresAt.toISOString(),
      ...eventParams(input.event),
    });
    if (row?.spent) return { ok: true, groups: row.groups, isAdmin: row.is_admin };
    return { ok: false, reason: row?.held ? 'step_replayed' : 'pending_spent' };
  }
}
