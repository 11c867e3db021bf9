import type { ApiToken, CreatedApiToken } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { isUniqueViolation } from '#src/lib/db-errors.js';
import { HttpProblem } from '#src/lib/problem.js';
import type { SessionActor } from '#src/modules/auth/sessions.repo.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { type ApiTokenRow, ApiTokensRepo } from './api-tokens.repo.js';
import { generateToken, parseToken, tokenMatches } from './token-format.js';

/** A caller authenticated by an API token: always fully signed in, never pending MFA. */
export type TokenCaller = SessionActor & { apiTokenId: number };

const TOUCH_AFTER_MS = 60_000;
const NAME_INDEX = 'api_tokens_user_name_key';

const userNotFound = () => new HttpProblem(404, 'user.not_found', 'User not found');
const tokenNotFound = () => new HttpProblem(404, 'api_token.not_found', 'API token not found');
const nameTaken = () =>
  new HttpProblem(400, 'api_token.name_taken', 'An API token with this name already exists.', [
    { path: 'name', code: 'name_taken', message: 'An API token with this name already exists' },
  ]);

const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  ...(row.lastUsedAt ? { last_used_at: row.lastUsedAt.toISOString() } : {}),
});

/** Personal API tokens: list, create (answered once), rename, delete; and Bearer authentication. */
export class ApiTokensService {
  constructor(private readonly db: Db) {}

  async list(username: string): Promise<ApiToken[]> {
    const repo = new ApiTokensRepo(this.db);
    const user = await repo.userByName(username);
    if (!user) throw userNotFound();
    return (await repo.listFor(user.id)).map(toApiToken);
  }

  async create(actor: SignedInActor, username: string, name: string): Promise<CreatedApiToken> {
    const { token, tokenId, hash } = generateToken();
    try {
      return await this.db.transaction(async (tx) => {
        const repo = new ApiTokensRepo(tx);
        const user = await repo.userByName(username);
        if (!user) throw userNotFound();
        const row = await repo.insert({ userId: user.id, name, tokenId, tokenHash: hash });
        await recordEvent(tx, {
          type: 'api_token.created',
          actor: userActor(actor),
          object: { type: 'api_token', id: row.id, name: row.name },
          subjectUserId: user.id,
          details: { username: user.username },
        });
        return { ...toApiToken(row), token };
      });
    } catch (error) {
      if (isUniqueViolation(error, NAME_INDEX)) throw nameTaken();
      throw error;
    }
  }

  async rename(actor: SignedInActor, username: string, id: number, name: string): Promise<ApiToken> {
    try {
      return await this.db.transaction(async (tx) => {
        const repo = new ApiTokensRepo(tx);
        const user = await repo.userByName(username);
        if (!user) throw userNotFound();
        const renamed = await repo.rename(user.id, id, name);
        if (!renamed) throw tokenNotFound();
        await recordEvent(tx, {
          type: 'api_token.renamed',
          actor: userActor(actor),
          object: { type: 'api_token', id, name: renamed.row.name },
          subjectUserId: user.id,
          details: { username: user.username, old_name: renamed.oldName },
        });
        return toApiToken(renamed.row);
      });
    } catch (error) {
      if (isUniqueViolation(error, NAME_INDEX)) throw nameTaken();
      throw error;
    }
  }

  async delete(actor: SignedInActor, username: string, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const repo = new ApiTokensRepo(tx);
      const user = await repo.userByName(username);
      if (!user) throw userNotFound();
      const row = await repo.delete(user.id, id);
      if (!row) throw tokenNotFound();
      await recordEvent(tx, {
        type: 'api_token.deleted',
        actor: userActor(actor),
        object: { type: 'api_token', id, name: row.name },
        subjectUserId: user.id,
        details: { username: user.username },
      });
    });
  }

  /**
   * The signed-in caller a Bearer token stands for, or undefined (malformed, bad checksum,
   * unknown, deleted, wrong secret, disabled owner). One indexed lookup and a SHA-256; the stored
   * hash is compared in constant time. `last_used_at` is written at most once a minute.
   */
  async authenticate(token: string): Promise<TokenCaller | undefined> {
    const tokenId = parseToken(token);
    if (!tokenId) return undefined;
    const repo = new ApiTokensRepo(this.db);
    const row = await repo.findOwner(tokenId);
    if (!row || !tokenMatches(token, row.token_hash)) return undefined;
    const lastUsed = row.last_used_at === null ? 0 : new Date(row.last_used_at).getTime();
    if (Date.now() - lastUsed > TOUCH_AFTER_MS) await repo.touch(row.token_pk);
    return {
      sessionId: `api_token:${row.token_pk}`,
      state: 'active',
      mfaPassed: false,
      lastSeenAt: new Date(),
      userId: row.user_id,
      username: row.username,
      isAdmin: row.is_admin,
      apiTokenId: row.token_pk,
    };
  }
}
