import { AsyncLocalStorage } from 'node:async_hooks';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import { preparedRows } from '#src/db/rows.js';
import { oauthClients, oidcArtifacts } from '#src/db/schema/index.js';
import { ACCOUNT_COLUMNS, type OidcAccountRow } from './accounts.repo.js';
import { type ArtifactRow, DEFERRED_CONSUMES, DEFERRED_UPSERTS, type RequestWrites, requestWrites } from './request-writes.repo.js';

/** A live row: not expired. Expired rows stay until the purge job deletes them, but never count. */
const live = () => or(isNull(oidcArtifacts.expiresAt), gt(oidcArtifacts.expiresAt, sql`now()`));

/** A found artifact: `consumed` (epoch seconds) is computed by PostgreSQL, no `Date` on the way. */
type FoundRow = { payload: Record<string, unknown>; consumed: number | null };

function rowPayload(row: FoundRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = row.payload as AdapterPayload;
  return row.consumed === null ? payload : { ...payload, consumed: Number(row.consumed) };
}

/*
 * The adapter's statements are fixed texts run as named prepared statements (`preparedRows`): a
 * refresh-token grant runs five of them (find the token and its grant, consume the token, store
 * the new refresh and access tokens), and building each through the query builder, then having
 * PostgreSQL parse and plan it, was most of the adapter's cost per grant (docs/benchmarks.md).
 */
const findStatement = (column: 'id' | 'uid' | 'user_code') =>
  preparedRows<FoundRow, 'model' | 'key'>(
    (p) => sql`select payload, floor(extract(epoch from consumed_at))::float8 as consumed
      from oidc_artifacts
      where model = ${p.model} and ${sql.raw(column)} = ${p.key} and (expires_at is null or expires_at > now())
      limit 1`,
  );
const findById = findStatement('id');
/**
 * A code or refresh token with its grant and its account (the user with the claims' sources), for
 * a token request: the provider reads the grant and calls findAccount right after.
 */
const findWithGrant = preparedRows<
  FoundRow & { grant_id: string | null; grant_payload: AdapterPayload | null; account_id: string | null; account: OidcAccountRow | null },
  'model' | 'key'
>(
  (p) => sql`select t.payload, floor(extract(epoch from t.consumed_at))::float8 as consumed, t.grant_id, g.payload as grant_payload,
        t.account_id,
        (select to_jsonb(a) from (select ${ACCOUNT_COLUMNS} from users u
          where u.oidc_sub = (case when t.account_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
            then t.account_id::uuid end)
          limit 1) a) as account
      from oidc_artifacts t
      left join oidc_artifacts g on g.model = 'Grant' and g.id = t.grant_id and (g.expires_at is null or g.expires_at > now())
      where t.model = ${p.model} and t.id = ${p.key} and (t.expires_at is null or t.expires_at > now())
      limit 1`,
);
const findByUid = findStatement('uid');
const findByUserCode = findStatement('user_code');

type UpsertKey = 'model' | 'id' | 'payload' | 'grantId' | 'uid' | 'userCode' | 'accountId' | 'clientId' | 'expiresAt';
const upsertStatement = preparedRows<never, UpsertKey>(
  (p) => sql`insert into oidc_artifacts (model, id, payload, grant_id, uid, user_code, account_id, client_id, expires_at)
    values (${p.model}, ${p.id}, ${p.payload}::jsonb, ${p.grantId}, ${p.uid}, ${p.userCode}, ${p.accountId}, ${p.clientId},
            ${p.expiresAt}::timestamptz)
    on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
      user_code = excluded.user_code, account_id = excluded.account_id, client_id = excluded.client_id,
      expires_at = excluded.expires_at`,
);
const consumeStatement = preparedRows<never, 'model' | 'id'>(
  (p) => sql`update oidc_artifacts set consumed_at = now() where model = ${p.model} and id = ${p.id}`,
);
const destroyStatement = preparedRows<never, 'model' | 'id'>(
  (p) => sql`delete from oidc_artifacts where model = ${p.model} and id = ${p.id}`,
);
const revokeStatement = preparedRows<never, 'grantId'>((p) => sql`delete from oidc_artifacts where grant_id = ${p.grantId}`);

/**
 * oidc-provider's storage interface on the `oidc_artifacts` table, one class per model (the
 * provider constructs it with the model name). No state in the process: every replica reads the
 * same rows. Clients are not stored here: `Client` reads the admins' `oauth_clients` table.
 */
/**
 * The transaction an interaction's artifact writes join (`withArtifactTransaction`): the user's
 * consent (the grant and the interaction's result) commits with its activity-log event, or not at
 * all. Outside it the adapter uses the pool.
 */
const artifactTransaction = new AsyncLocalStorage<Db>();
const current = (pool: Db): Db => artifactTransaction.getStore() ?? pool;

/** Runs `fn` with the adapter's statements on `tx` (a transaction handle of `db.transaction`). */
export function withArtifactTransaction<T>(tx: Db, fn: () => Promise<T>): Promise<T> {
  return artifactTransaction.run(tx, fn);
}

export function databaseAdapter(
  db: Db,
  findClient: (clientId: string, db: Db) => Promise<AdapterPayload | undefined>,
): new (
  model: string,
) => Adapter {
  return class DatabaseAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    /** This request's deferred writes (token requests only), written first when anything else comes. */
    async #settled(): Promise<RequestWrites | undefined> {
      const writes = requestWrites.getStore();
      if (writes) {
        await writes.settle(current(db));
        writes.forgetReads();
      }
      return writes;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row: ArtifactRow = {
        model: this.model,
        id,
        payload,
        // A grant is its own grant id, so revoking a grant removes it with its tokens.
        grant_id: this.model === 'Grant' ? id : (payload.grantId ?? null),
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        account_id: payload.accountId ?? null,
        client_id: payload.clientId ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
      };
      const writes = requestWrites.getStore();
      if (writes && DEFERRED_UPSERTS.has(this.model)) return writes.store(row, current(db));
      await this.#settled();
      await upsertStatement(current(db), {
        model: row.model,
        id: row.id,
        payload: JSON.stringify(row.payload),
        grantId: row.grant_id,
        uid: row.uid,
        userCode: row.user_code,
        accountId: row.account_id,
        clientId: row.client_id,
        expiresAt: row.expires_at,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return findClient(id, current(db));
      const writes = requestWrites.getStore();
      if (writes && !writes.pending && this.model === 'Grant') {
        const grant = writes.takeGrant(id);
        if (grant !== undefined) return grant ?? undefined;
      }
      await this.#settled();
      if (writes && DEFERRED_CONSUMES.has(this.model)) {
        const [row] = await findWithGrant(current(db), { model: this.model, key: id });
        if (row?.grant_id) writes.rememberGrant(row.grant_id, row.grant_payload ?? null);
        if (row?.account_id) writes.rememberAccount(row.account_id, row.account ?? null);
        return rowPayload(row);
      }
      const [row] = await findById(current(db), { model: this.model, key: id });
      return rowPayload(row);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      await this.#settled();
      const [row] = await findByUid(current(db), { model: this.model, key: uid });
      return rowPayload(row);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      await this.#settled();
      const [row] = await findByUserCode(current(db), { model: this.model, key: userCode });
      return rowPayload(row);
    }

    async consume(id: string): Promise<void> {
      const writes = requestWrites.getStore();
      if (writes && DEFERRED_CONSUMES.has(this.model)) return writes.consume(this.model, id, current(db));
      await this.#settled();
      await consumeStatement(current(db), { model: this.model, id });
    }

    async destroy(id: string): Promise<void> {
      await this.#settled();
      await destroyStatement(current(db), { model: this.model, id });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await this.#settled();
      await revokeStatement(current(db), { grantId });
    }
  };
}

/** Deletes up to `batch` expired artifacts; resolves to the number deleted (oidc-purge job). */
export async function purgeExpiredArtifacts(db: Db, batch: number): Promise<number> {
  const deleted = await db
    .delete(oidcArtifacts)
    .where(
      sql`(${oidcArtifacts.model}, ${oidcArtifacts.id}) in (select model, id from oidc_artifacts where expires_at < now() limit ${batch})`,
    )
    .returning({ id: oidcArtifacts.id });
  return deleted.length;
}

/** The live grant a user gave an app (the newest), if any: earlier consent is remembered by it. */
export async function findGrantId(db: Db, accountId: string, clientId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: oidcArtifacts.id })
    .from(oidcArtifacts)
    .where(and(eq(oidcArtifacts.model, 'Grant'), eq(oidcArtifacts.accountId, accountId), eq(oidcArtifacts.clientId, clientId), live()))
    .orderBy(desc(oidcArtifacts.expiresAt))
    .limit(1);
  return row?.id;
}

/** An app as the provider reads it on every token, authorization and userinfo request. */
export interface ClientRow {
  client_id: string;
  client_secret_enc: string | null;
  name: string;
  redirect_uris: string[];
  scopes: string[];
  public: boolean;
  enabled: boolean;
}

const clientStatement = preparedRows<ClientRow, 'clientId'>(
  (p) => sql`select client_id, client_secret_enc, name, redirect_uris, scopes, public, enabled
    from oauth_clients where client_id = ${p.clientId} limit 1`,
);

/** The provider's read of an app (a fixed prepared statement: it runs on every grant). */
export async function findClientRow(db: Db, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await clientStatement(db, { clientId });
  return row;
}

/** An app of the admins' `oauth_clients` table by client ID. */
export async function findOAuthClientRow(db: Db, clientId: string) {
  const [app] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
  return app;
}

/**
 * Deletes what the provider stored for an app (its grants with their codes and tokens, its waiting
 * interactions): called in the transaction that deletes the app.
 */
export async function deleteClientArtifacts(db: Db, clientId: string): Promise<void> {
  await db
    .delete(oidcArtifacts)
    .where(
      or(
        eq(oidcArtifacts.clientId, clientId),
        sql`${oidcArtifacts.grantId} in (select id from oidc_artifacts where model = 'Grant' and client_id = ${clientId})`,
        and(eq(oidcArtifacts.model, 'Interaction'), sql`${oidcArtifacts.payload}->'params'->>'client_id' = ${clientId}`),
      ),
    );
}
