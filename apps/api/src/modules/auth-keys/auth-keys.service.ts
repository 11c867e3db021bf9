import type { AuthKey, AuthKeyType, CreateAuthKeyBody } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { isUniqueViolation } from '#src/lib/db-errors.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type EventActor, type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { parseAuthKey } from './auth-key-parse.js';
import { AUTH_KEY_UNIQUE, type AuthKeyRow, AuthKeysRepo } from './auth-keys.repo.js';

const userNotFound = () => new HttpProblem(404, 'user.not_found', 'User not found');
const keyNotFound = () => new HttpProblem(404, 'auth_key.not_found', 'Key not found');
const alreadyAdded = () =>
  new HttpProblem(409, 'auth_key.already_added', 'This key has already been added.', [
    { path: 'key', code: 'auth_key.already_added', message: 'This key has already been added.' },
  ]);

export function toAuthKey(row: AuthKeyRow): AuthKey {
  return {
    id: row.id,
    name: row.name,
    key_type: row.keyType,
    key: row.key,
    fingerprint: row.fingerprint,
    ...(row.serial === null ? {} : { serial: row.serial }),
    created_at: row.createdAt.toISOString(),
  };
}

/** A key to store for a user: pasted in the console, or read from a card by a provisioning station. */
export interface NewUserKey {
  name: string;
  key_type: AuthKeyType;
  /** An OpenSSH public key line or an armored GPG public key; parsed and validated here. */
  key: string;
}

/**
 * Stores keys for a user inside the caller's transaction, recording `auth_key.added` for each.
 * `serial` marks keys written to a smart card (YubiKey provisioning). A key the user already has
 * (same fingerprint) answers 409 `auth_key.already_added`; bad keys answer 400 (auth-key-parse.ts).
 */
export async function addUserKeys(
  tx: Db,
  actor: EventActor,
  user: { id: number; username: string },
  keys: NewUserKey[],
  serial?: string,
): Promise<AuthKey[]> {
  const repo = new AuthKeysRepo(tx);
  const added: AuthKey[] = [];
  for (const input of keys) {
    const parsed = await parseAuthKey(input.key_type, input.key);
    if (await repo.findByFingerprint(user.id, parsed.fingerprint)) throw alreadyAdded();
    const row = await repo.insert({ userId: user.id, name: input.name, ...parsed, serial: serial ?? null });
    await recordEvent(tx, {
      type: 'auth_key.added',
      actor,
      object: { type: 'auth_key', id: row.id, name: row.name },
      subjectUserId: user.id,
      details: { username: user.username, key_type: row.keyType, fingerprint: row.fingerprint, ...(serial ? { serial } : {}) },
    });
    added.push(toAuthKey(row));
  }
  return added;
}

/** A user's SSH and GPG keys: list, add, rename, delete (self or admin), and authorized_keys. */
export class AuthKeysService {
  constructor(private readonly db: Db) {}

  async list(username: string): Promise<AuthKey[]> {
    const repo = new AuthKeysRepo(this.db);
    const user = await repo.userByName(username);
    if (!user) throw userNotFound();
    return (await repo.list(user.id)).map(toAuthKey);
  }

  async create(actor: SignedInActor, username: string, body: CreateAuthKeyBody): Promise<AuthKey> {
    try {
      return await this.db.transaction(async (tx) => {
        const user = await new AuthKeysRepo(tx).userByName(username);
        if (!user) throw userNotFound();
        const [added] = await addUserKeys(tx, userActor(actor), user, [body]);
        if (!added) throw new Error('no key added');
        return added;
      });
    } catch (error) {
      // Two requests adding the same key at once: the second meets the unique index.
      if (isUniqueViolation(error, AUTH_KEY_UNIQUE)) throw alreadyAdded();
      throw error;
    }
  }

  async rename(actor: SignedInActor, username: string, id: number, name: string): Promise<AuthKey> {
    return this.db.transaction(async (tx) => {
      const repo = new AuthKeysRepo(tx);
      const user = await repo.userByName(username);
      if (!user) throw userNotFound();
      const before = await repo.find(user.id, id);
      const row = await repo.rename(user.id, id, name);
      if (!before || !row) throw keyNotFound();
      await recordEvent(tx, {
        type: 'auth_key.renamed',
        actor: userActor(actor),
        object: { type: 'auth_key', id: row.id, name: row.name },
        subjectUserId: user.id,
        details: { username: user.username, old_name: before.name, name: row.name },
      });
      return toAuthKey(row);
    });
  }

  async delete(actor: SignedInActor, username: string, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const repo = new AuthKeysRepo(tx);
      const user = await repo.userByName(username);
      if (!user) throw userNotFound();
      const row = await repo.delete(user.id, id);
      if (!row) throw keyNotFound();
      await recordEvent(tx, {
        type: 'auth_key.removed',
        actor: userActor(actor),
        object: { type: 'auth_key', id: row.id, name: row.name },
        subjectUserId: user.id,
        details: { username: user.username, key_type: row.keyType, fingerprint: row.fingerprint },
      });
    });
  }

  /**
   * The user's SSH keys as authorized_keys lines (`type base64 name`). Unknown and disabled users
   * get no lines (an empty body, not a 404: the public route does not tell who exists).
   */
  async authorizedKeys(username: string): Promise<string> {
    const repo = new AuthKeysRepo(this.db);
    const user = await repo.userByName(username);
    if (!user?.isActive) return '';
    const rows = await repo.list(user.id, 'ssh');
    return rows.map((row) => `${row.key} ${commentOf(row.name)}\n`).join('');
  }
}

/** A key name as an authorized_keys comment: one line of printable characters. */
function commentOf(name: string): string {
  return name.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();
}
