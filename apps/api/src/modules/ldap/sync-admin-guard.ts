import { lower, type PalisadeChange, type PalisadeSide, type PalisadeUser, type SkippedChange } from './sync-model.js';

/**
 * Keeps the plan from leaving Palisade without an active admin: counts the active admins and
 * refuses (records as skipped) the disable, delete or admin-group removal that would end the last
 * one. The appliers check the same invariant again in their transactions (withAdminInvariant).
 */
export class AdminGuard {
  readonly skipped: SkippedChange[] = [];
  readonly #adminGroups: Set<string>;
  /** Active admins by id → the admin groups they are still in. */
  readonly #admins = new Map<number, Set<string>>();

  constructor(palisade: PalisadeSide) {
    this.#adminGroups = new Set(palisade.groups.filter((g) => g.isAdmin).map((g) => lower(g.name)));
    for (const u of palisade.users) {
      const groups = new Set(u.groups.map(lower).filter((g) => this.#adminGroups.has(g)));
      if (u.isActive && groups.size > 0) this.#admins.set(u.id, groups);
    }
  }

  /** The account stops being active (disabled or deleted). */
  allowRemove(account: PalisadeUser, change: PalisadeChange): boolean {
    if (!this.#admins.has(account.id)) return true;
    if (this.#admins.size <= 1) return this.#skip(account, change);
    this.#admins.delete(account.id);
    return true;
  }

  /** The account leaves `group` (lower-cased). */
  allowLeave(account: PalisadeUser, group: string, change: PalisadeChange): boolean {
    const groups = this.#admins.get(account.id);
    if (!groups?.has(group)) return true;
    if (groups.size === 1 && this.#admins.size <= 1) return this.#skip(account, change);
    groups.delete(group);
    if (groups.size === 0) this.#admins.delete(account.id);
    return true;
  }

  #skip(account: PalisadeUser, change: PalisadeChange): false {
    this.skipped.push({ username: account.username, change: change.kind, reason: 'last_admin' });
    return false;
  }
}
