import type { DirectorySyncBehavior, DirectorySyncTarget } from '@palisade/contracts';
import { type EventActor, SYSTEM_ACTOR } from '#src/modules/events/event-actor.js';

/** How a run is configured (the provider's directory-sync fields). */
export interface SyncSettings {
  /** The provider's name: `external_identities.provider` of the accounts it links. */
  provider: string;
  target: DirectorySyncTarget;
  userBehavior: DirectorySyncBehavior;
  adminBehavior: DirectorySyncBehavior;
  /** Directory group names to sync (case-insensitive); empty = every group. */
  groupMatch: string[];
}

/** A change the run did not make, and why (the last admin, a group name Palisade refuses). */
export interface SkippedChange {
  change: 'disable' | 'delete' | 'remove_member' | 'create_group';
  username?: string;
  group?: string;
  reason: 'last_admin' | 'invalid_group_name';
}

export interface SyncSummary {
  /** What the directory holds: its users, and its groups that match group_match. */
  directory_users: number;
  directory_groups: number;
  identities_linked: number;
  users_enabled: number;
  users_disabled: number;
  users_deleted: number;
  groups_created: number;
  members_added: number;
  members_removed: number;
  skipped: SkippedChange[];
}

export const emptySummary = (): SyncSummary => ({
  directory_users: 0,
  directory_groups: 0,
  identities_linked: 0,
  users_enabled: 0,
  users_disabled: 0,
  users_deleted: 0,
  groups_created: 0,
  members_added: 0,
  members_removed: 0,
  skipped: [],
});

/** Who a sync's changes are recorded as (the job: the system). */
export const SYNC_ACTOR: EventActor = SYSTEM_ACTOR;
/** The detail every change a directory sync makes carries (dir-design: `source`). */
export const SYNC_SOURCE = { source: 'directory_sync' } as const;

/** Whether a directory group takes part (group_match: comma-separated names, blank = all). */
export function matchesGroup(groupMatch: string[], name: string): boolean {
  const wanted = groupMatch.map((g) => g.trim().toLowerCase()).filter(Boolean);
  return wanted.length === 0 || wanted.includes(name.trim().toLowerCase());
}
