import type { GroupInfo } from '@palisade/contracts';

/**
 * Who is an administrator follows from group membership: a member of any group with the admin
 * flag. These pure helpers tell, before a change is sent, whether it takes the signed-in admin's
 * own rights away (the console then asks first and leaves the admin screens afterwards) or gives
 * someone full rights (asked too).
 */

export const isAdminIn = (username: string, groups: readonly GroupInfo[]): boolean =>
  groups.some((g) => g.is_admin && g.members.includes(username));

/** The groups after `username` left `group`. */
export const withoutMember = (groups: readonly GroupInfo[], group: string, username: string): GroupInfo[] =>
  groups.map((g) => (g.name === group ? { ...g, members: g.members.filter((m) => m !== username) } : g));

/** The groups after `group` was renamed and its admin flag set. */
export const withGroupChanged = (groups: readonly GroupInfo[], group: string, change: { name: string; is_admin: boolean }): GroupInfo[] =>
  groups.map((g) => (g.name === group ? { ...g, ...change } : g));

export const withoutGroup = (groups: readonly GroupInfo[], group: string): GroupInfo[] => groups.filter((g) => g.name !== group);

/** The groups after `username`'s memberships became exactly `names`. */
export const withMemberships = (groups: readonly GroupInfo[], username: string, names: readonly string[]): GroupInfo[] =>
  groups.map((g) => {
    const members = g.members.filter((m) => m !== username);
    return { ...g, members: names.includes(g.name) ? [...members, username] : members };
  });

/** The change removes `me`'s own administrator rights. */
export const demotesSelf = (me: string, before: readonly GroupInfo[], after: readonly GroupInfo[]): boolean =>
  isAdminIn(me, before) && !isAdminIn(me, after);

/** Users the change makes administrators (they were not before). */
export const newAdmins = (before: readonly GroupInfo[], after: readonly GroupInfo[]): string[] => {
  const everyone = new Set(after.flatMap((g) => g.members));
  return [...everyone].filter((u) => isAdminIn(u, after) && !isAdminIn(u, before)).sort();
};

/** The groups after `username` joined `group`. */
export const withMember = (groups: readonly GroupInfo[], group: string, username: string): GroupInfo[] =>
  groups.map((g) => (g.name === group && !g.members.includes(username) ? { ...g, members: [...g.members, username] } : g));

/** What a change does to administrator rights: nothing to ask, the own rights go, or others get them. */
export type AdminImpact = { kind: 'self' } | { kind: 'grant'; users: string[] } | undefined;

export function adminImpact(me: string, before: readonly GroupInfo[], after: readonly GroupInfo[]): AdminImpact {
  if (demotesSelf(me, before, after)) return { kind: 'self' };
  const granted = newAdmins(before, after);
  return granted.length > 0 ? { kind: 'grant', users: granted } : undefined;
}
