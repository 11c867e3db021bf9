import type {
  CreateOAuthClientBody,
  OAuthClient,
  OAuthClientSecret,
  OAuthClientWithSecret,
  OAuthScope,
  UpdateOAuthClientBody,
} from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { randomToken, type SecretBox } from '#src/lib/crypto.js';
import { conflict, notFound } from '#src/lib/problem.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { type OAuthClientRow, OAuthClientsRepo } from './oauth-clients.repo.js';

export const toOAuthClient = (row: OAuthClientRow): OAuthClient => ({
  client_id: row.clientId,
  name: row.name,
  redirect_uris: row.redirectUris,
  scopes: row.scopes as OAuthScope[],
  public: row.public,
  enabled: row.enabled,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** 32 url-safe characters (24 random bytes). */
export const newClientId = (): string => randomToken(24);
/** 64 url-safe characters (48 random bytes). */
const newClientSecret = (): string => randomToken(48);

const appNotFound = (clientId: string) => notFound('oauth_client.not_found', `OpenID app ${clientId} does not exist.`);
const publicApp = () => conflict('oauth_client.public', 'A public app has no client secret (it uses PKCE).');

/** The object of an app's events. */
const objectOf = (row: Pick<OAuthClientRow, 'clientId' | 'name'>) => ({ type: 'oauth_app', id: row.clientId, name: row.name });

/**
 * Runs in the transaction that deletes an OpenID app, after the app's row is gone: the OIDC
 * provider removes what it stored for that client (app.ts wires it; this module does not know the
 * provider).
 */
export type OAuthClientDeletedHook = (tx: Db, clientId: string) => Promise<void>;

/**
 * OpenID apps (OAuth clients; spec §2, §3, §5, §7): CRUD, enable/disable, show and regenerate the
 * client secret. Secrets are sealed at rest with the instance key and never recorded in events.
 */
export class OAuthClientsService {
  readonly #repo: OAuthClientsRepo;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly onDeleted: OAuthClientDeletedHook,
  ) {
    this.#repo = new OAuthClientsRepo(db);
  }

  async list(): Promise<OAuthClient[]> {
    return (await this.#repo.list()).map(toOAuthClient);
  }

  async get(clientId: string): Promise<OAuthClient> {
    const row = await this.#repo.find(clientId);
    if (!row) throw appNotFound(clientId);
    return toOAuthClient(row);
  }

  /** Creates an app; a confidential one gets a secret, answered here once. */
  async create(actor: SignedInActor, body: CreateOAuthClientBody): Promise<OAuthClientWithSecret> {
    const secret = body.public ? undefined : newClientSecret();
    const row = await this.#transaction(async (tx) => {
      const created = await new OAuthClientsRepo(tx).insert({
        clientId: newClientId(),
        clientSecretEnc: secret === undefined ? null : this.secrets.encrypt(secret),
        name: body.name,
        redirectUris: body.redirect_uris,
        scopes: body.scopes,
        public: body.public,
        enabled: body.enabled,
      });
      await recordEvent(tx, {
        type: 'oauth_app.created',
        actor: userActor(actor),
        object: objectOf(created),
        details: { redirect_uris: created.redirectUris, scopes: created.scopes, public: created.public, enabled: created.enabled },
      });
      return created;
    });
    return { ...toOAuthClient(row), ...(secret === undefined ? {} : { client_secret: secret }) };
  }

  /**
   * Changes an app. Turning a confidential app public drops its secret; turning a public app
   * confidential generates one, answered here once.
   */
  async update(actor: SignedInActor, clientId: string, body: UpdateOAuthClientBody): Promise<OAuthClientWithSecret> {
    return this.#transaction(async (tx) => {
      const repo = new OAuthClientsRepo(tx);
      const before = await repo.findForUpdate(clientId);
      if (!before) throw appNotFound(clientId);
      const secret = before.public && !body.public ? newClientSecret() : undefined;
      const row = await repo.update(clientId, {
        name: body.name,
        redirectUris: body.redirect_uris,
        scopes: body.scopes,
        public: body.public,
        ...(body.public ? { clientSecretEnc: null } : {}),
        ...(secret === undefined ? {} : { clientSecretEnc: this.secrets.encrypt(secret) }),
      });
      const changed = [
        before.name !== row.name && 'name',
        before.redirectUris.join('\n') !== row.redirectUris.join('\n') && 'redirect_uris',
        before.scopes.join(',') !== row.scopes.join(',') && 'scopes',
        before.public !== row.public && 'public',
      ].filter((f): f is string => typeof f === 'string');
      await recordEvent(tx, {
        type: 'oauth_app.modified',
        actor: userActor(actor),
        object: objectOf(row),
        details: { changed, ...(changed.includes('name') ? { previous_name: before.name } : {}) },
      });
      return { ...toOAuthClient(row), ...(secret === undefined ? {} : { client_secret: secret }) };
    });
  }

  /** Enables or disables; the provider reads the flag on every lookup, so it applies at once. */
  async setEnabled(actor: SignedInActor, clientId: string, enabled: boolean): Promise<OAuthClient> {
    return this.#transaction(async (tx) => {
      const repo = new OAuthClientsRepo(tx);
      const before = await repo.findForUpdate(clientId);
      if (!before) throw appNotFound(clientId);
      if (before.enabled === enabled) return toOAuthClient(before);
      const row = await repo.update(clientId, { enabled });
      await recordEvent(tx, { type: enabled ? 'oauth_app.enabled' : 'oauth_app.disabled', actor: userActor(actor), object: objectOf(row) });
      return toOAuthClient(row);
    });
  }

  async delete(actor: SignedInActor, clientId: string): Promise<void> {
    await this.#transaction(async (tx) => {
      const repo = new OAuthClientsRepo(tx);
      const before = await repo.findForUpdate(clientId);
      if (!before) throw appNotFound(clientId);
      await repo.delete(clientId);
      await this.onDeleted(tx, clientId);
      await recordEvent(tx, { type: 'oauth_app.deleted', actor: userActor(actor), object: objectOf(before) });
    });
  }

  /** "Show secret": an explicit admin action, recorded in the activity log (never the value). */
  async revealSecret(actor: SignedInActor, clientId: string): Promise<OAuthClientSecret> {
    return this.#transaction(async (tx) => {
      const row = await new OAuthClientsRepo(tx).find(clientId);
      if (!row) throw appNotFound(clientId);
      if (row.clientSecretEnc === null) throw publicApp();
      await recordEvent(tx, { type: 'oauth_app.secret_viewed', actor: userActor(actor), object: objectOf(row) });
      return { client_secret: this.secrets.decrypt(row.clientSecretEnc) };
    });
  }

  /** A new secret; the old one stops working at once (the provider reads it on every lookup). */
  async regenerateSecret(actor: SignedInActor, clientId: string): Promise<OAuthClientSecret> {
    return this.#transaction(async (tx) => {
      const repo = new OAuthClientsRepo(tx);
      const row = await repo.findForUpdate(clientId);
      if (!row) throw appNotFound(clientId);
      if (row.public) throw publicApp();
      const secret = newClientSecret();
      await repo.update(clientId, { clientSecretEnc: this.secrets.encrypt(secret) });
      await recordEvent(tx, { type: 'oauth_app.secret_regenerated', actor: userActor(actor), object: objectOf(row) });
      return { client_secret: secret };
    });
  }

  #transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((raw) => fn(raw as unknown as Db));
  }
}
