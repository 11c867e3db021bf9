import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { type AdapterPayload, errors } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import { preparedRows } from '#src/db/rows.js';
import type { OidcAccountRow } from './accounts.repo.js';

/** One artifact row as the adapter stores it. */
export interface ArtifactRow {
  model: string;
  id: string;
  payload: AdapterPayload;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  account_id: string | null;
  client_id: string | null;
  expires_at: string | null;
}

/** Models whose writes a token request may defer: what a code or refresh-token grant stores and consumes. */
export const DEFERRED_UPSERTS = new Set(['AccessToken', 'RefreshToken']);
export const DEFERRED_CONSUMES = new Set(['AuthorizationCode', 'RefreshToken']);

const keyOf = (model: string, id: string): string => `${model}\u0000${id}`;

/**
 * The artifact writes of one token request (`POST …/token`), kept until the answer is ready and
 * then written by ONE statement in one transaction (`settle`): a refresh-token grant
 * consumes the old token and stores a new refresh and access token, which were three statements
 * and three commits. Nothing outlives the request, so replicas never see different state.
 *
 * - The consumes are conditional (`consumed_at is null`): when another request consumed the same
 *   code or refresh token first (or it is gone), nothing of this request is stored and it answers
 *   `invalid_grant`, and the grant is revoked as the provider revokes it on a reused token.
 * - Reading a code or refresh token reads its grant and its account (user and claims) in the same
 *   statement; the provider's `Grant.find` and `findAccount` right after take them, once each.
 * - Any other adapter call of the request (a find, a destroy, a revocation, a write of another
 *   model) first writes what is pending, so the request reads its own writes in order.
 * - The answer is sent only after the statement has committed (synchronous_commit on): a token
 *   the app received survives a crash (ADR-006).
 */
export class RequestWrites {
  /** At most one per batch (a token request consumes one code or refresh token). */
  #consume: { model: string; id: string } | undefined;
  readonly #stores = new Map<string, ArtifactRow>();
  /** The grant read with this request's code or refresh token (one use; null: no live grant). */
  readonly #grants = new Map<string, AdapterPayload | null>();
  /** The account (by sub) read with it, for findAccount (one use; null: no such user). */
  readonly #accounts = new Map<string, OidcAccountRow | null>();
  #inFlight: Promise<void> = Promise.resolve();

  get pending(): boolean {
    return this.#consume !== undefined || this.#stores.size > 0;
  }

  /** Queues an upsert; a pending consume of the same artifact is written first. */
  async store(row: ArtifactRow, db: Db): Promise<void> {
    const key = keyOf(row.model, row.id);
    if (this.#consume && keyOf(this.#consume.model, this.#consume.id) === key) await this.settle(db);
    this.#stores.set(key, row);
  }

  /** Queues a consume; whatever is pending (another consume, or writes queued before it) is written first. */
  async consume(model: string, id: string, db: Db): Promise<void> {
    if (this.pending) await this.settle(db);
    this.#consume = { model, id };
  }

  rememberGrant(grantId: string, payload: AdapterPayload | null): void {
    this.#grants.set(grantId, payload);
  }

  /** The grant read with the token, once; undefined when none was read (ask the database). */
  takeGrant(grantId: string): AdapterPayload | null | undefined {
    const grant = this.#grants.get(grantId);
    this.#grants.delete(grantId);
    return grant;
  }

  rememberAccount(sub: string, account: OidcAccountRow | null): void {
    this.#accounts.set(sub, account);
  }

  /** The account read with the token, once; undefined when none was read (ask the database). */
  takeAccount(sub: string): OidcAccountRow | null | undefined {
    const account = this.#accounts.get(sub);
    this.#accounts.delete(sub);
    return account;
  }

  forgetReads(): void {
    this.#grants.clear();
    this.#accounts.clear();
  }

  /**
   * Writes what is pending (and waits for a write under way). Throws `invalid_grant` when a
   * consume found its artifact already consumed or gone: nothing of it was stored.
   */
  settle(db: Db): Promise<void> {
    if (this.pending) {
      const consume = this.#consume;
      const stores = [...this.#stores.values()];
      this.#consume = undefined;
      this.#stores.clear();
      const previous = this.#inFlight;
      this.#inFlight = previous.then(() => writeBatch(db, consume, stores));
    }
    return this.#inFlight;
  }
}

export const requestWrites = new AsyncLocalStorage<RequestWrites>();

/*
 * Every lookup here is by the primary key with scalar parameters, so the plan is an index scan
 * whatever the table's statistics say (a join with the JSON rows, planned while the table was
 * small, kept a sequential scan in the cached generic plan as the table grew).
 */
const batchStatement = preparedRows<{ conflict: boolean }, 'consumeModel' | 'consumeId' | 'wanted' | 'stores' | 'wanted2'>(
  (p) => sql`with consumed as (
      update oidc_artifacts set consumed_at = now()
      where model = ${p.consumeModel} and id = ${p.consumeId} and consumed_at is null
      returning 1
    ), stored as (
      insert into oidc_artifacts (model, id, payload, grant_id, uid, user_code, account_id, client_id, expires_at)
      select s.model, s.id, s.payload, s.grant_id, s.uid, s.user_code, s.account_id, s.client_id, s.expires_at
      from jsonb_to_recordset(${p.stores}::jsonb) as s(model text, id text, payload jsonb, grant_id text, uid text,
        user_code text, account_id text, client_id text, expires_at timestamptz)
      where not ${p.wanted}::boolean or exists (select 1 from consumed)
      on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
        user_code = excluded.user_code, account_id = excluded.account_id, client_id = excluded.client_id,
        expires_at = excluded.expires_at
      returning 1
    )
    select ${p.wanted2}::boolean and not exists (select 1 from consumed) as conflict, (select count(*) from stored)::int as stored`,
);
/** Revokes the grant of a code or refresh token that was used twice (the provider's reuse rule). */
const revokeGrantOfStatement = preparedRows<never, 'model' | 'id'>(
  (p) => sql`delete from oidc_artifacts
    where grant_id = (select grant_id from oidc_artifacts where model = ${p.model} and id = ${p.id})`,
);

async function writeBatch(db: Db, consume: { model: string; id: string } | undefined, stores: ArtifactRow[]): Promise<void> {
  const wanted = consume !== undefined;
  const [result] = await batchStatement(db, {
    consumeModel: consume?.model ?? null,
    consumeId: consume?.id ?? null,
    wanted,
    stores: JSON.stringify(stores),
    wanted2: wanted,
  });
  if (!result?.conflict || !consume) return;
  await revokeGrantOfStatement(db, consume);
  throw new errors.InvalidGrant('authorization code or refresh token already consumed by another request');
}
