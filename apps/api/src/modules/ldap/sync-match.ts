import { type LdapUser, lower, type PalisadeUser } from './sync-model.js';

/** A person as both sides know them; either side may be missing. */
export interface SyncPair {
  ldap?: LdapUser | undefined;
  palisade?: PalisadeUser | undefined;
}

/**
 * Pairs LDAP entries with Palisade accounts: first the account linked to the entry's DN, then the
 * same username, then the same email (an entry renamed in LDAP gets a new DN when its RDN is the
 * username; the account linked to the old DN follows it by email). Every user is in one pair.
 */
export function matchUsers(ldapUsers: LdapUser[], palisadeUsers: PalisadeUser[]): SyncPair[] {
  const taken = new Set<number>();
  const pairs = new Map<LdapUser, PalisadeUser>();
  const ldapDns = new Set(ldapUsers.map((u) => lower(u.dn)));
  const free = (p: PalisadeUser) => !taken.has(p.id);
  const pass = (find: (l: LdapUser) => PalisadeUser | undefined) => {
    for (const l of ldapUsers) {
      if (pairs.has(l)) continue;
      const p = find(l);
      if (p) {
        pairs.set(l, p);
        taken.add(p.id);
      }
    }
  };
  const byDn = indexBy(
    palisadeUsers.filter((p) => p.ldapDn !== null),
    (p) => lower(p.ldapDn ?? ''),
  );
  const byName = indexBy(palisadeUsers, (p) => lower(p.username));
  // A linked account whose entry still exists belongs to that entry, never to another by email.
  const orphan = (p: PalisadeUser) => p.ldapDn === null || !ldapDns.has(lower(p.ldapDn));
  const byEmail = indexBy(palisadeUsers.filter(orphan), (p) => lower(p.email));
  pass((l) => pick(byDn.get(lower(l.dn)), free));
  pass((l) => pick(byName.get(lower(l.username)), (p) => free(p) && orphan(p)));
  pass((l) => pick(byEmail.get(lower(l.email)), free));
  const result: SyncPair[] = ldapUsers.map((l) => ({ ldap: l, palisade: pairs.get(l) }));
  for (const p of palisadeUsers) if (!taken.has(p.id)) result.push({ palisade: p });
  return result;
}

function indexBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

const pick = <T>(candidates: T[] | undefined, ok: (item: T) => boolean) => candidates?.find(ok);
