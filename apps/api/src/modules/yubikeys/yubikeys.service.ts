import type { Yubikey } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type EventActor, type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { type YubikeyRow, YubikeysRepo } from './yubikeys.repo.js';

const userNotFound = () => new HttpProblem(404, 'user.not_found', 'User not found');
const yubikeyNotFound = () => new HttpProblem(404, 'yubikey.not_found', 'YubiKey not found');

const toYubikey = (row: YubikeyRow): Yubikey => ({
  id: row.id,
  name: row.name,
  serial: row.serial,
  created_at: row.createdAt.toISOString(),
});

/**
 * Records a freshly provisioned card for `user` inside the caller's transaction. A card provisioned
 * before (the same serial, for anyone) was wiped by the station: its old record and keys go.
 */
export async function replaceYubikey(tx: Db, actor: EventActor, user: { id: number; username: string }, serial: string) {
  const repo = new YubikeysRepo(tx);
  const previous = await repo.deleteBySerial(serial);
  if (previous) {
    const keys = await repo.deleteCardKeys(previous);
    await recordEvent(tx, {
      type: 'yubikey.deleted',
      actor,
      object: { type: 'yubikey', id: previous.id, name: previous.name },
      subjectUserId: previous.userId,
      details: { serial: previous.serial, removed_keys: keys, reason: 'reprovisioned' },
    });
  }
  return repo.insert({ userId: user.id, name: `YubiKey ${serial}`, serial });
}

/** A user's YubiKeys (self or admin): list, rename, delete (with the card's keys). */
export class YubikeysService {
  constructor(private readonly db: Db) {}

  private async userOf(repo: YubikeysRepo, username: string): Promise<{ id: number; username: string }> {
    const user = await repo.userByName(username);
    if (!user) throw userNotFound();
    return user;
  }

  async list(username: string): Promise<Yubikey[]> {
    const repo = new YubikeysRepo(this.db);
    const user = await this.userOf(repo, username);
    return (await repo.list(user.id)).map(toYubikey);
  }

  async rename(actor: SignedInActor, username: string, id: number, name: string): Promise<Yubikey> {
    return this.db.transaction(async (tx) => {
      const repo = new YubikeysRepo(tx);
      const user = await this.userOf(repo, username);
      const before = await repo.findForUpdate(user.id, id);
      if (!before) throw yubikeyNotFound();
      const row = await repo.rename(id, name);
      if (!row) throw yubikeyNotFound();
      await recordEvent(tx, {
        type: 'yubikey.renamed',
        actor: userActor(actor),
        object: { type: 'yubikey', id: row.id, name: row.name },
        subjectUserId: user.id,
        details: { username: user.username, old_name: before.name, name: row.name, serial: row.serial },
      });
      return toYubikey(row);
    });
  }

  async delete(actor: SignedInActor, username: string, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const repo = new YubikeysRepo(tx);
      const user = await this.userOf(repo, username);
      const row = await repo.delete(user.id, id);
      if (!row) throw yubikeyNotFound();
      const keys = await repo.deleteCardKeys(row);
      await recordEvent(tx, {
        type: 'yubikey.deleted',
        actor: userActor(actor),
        object: { type: 'yubikey', id: row.id, name: row.name },
        subjectUserId: user.id,
        details: { username: user.username, serial: row.serial, removed_keys: keys },
      });
    });
  }
}
