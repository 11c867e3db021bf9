import { type LdapSide, lower, type PalisadeSide, type SyncChange, type SyncConfig } from './sync-model.js';

/**
 * Carries a plan out on in-memory copies of both sides, the way the appliers do on the real ones
 * (the unit tests check that planning the result finds nothing left to change).
 */
export function simulateSync(ldap: LdapSide, palisade: PalisadeSide, changes: SyncChange[], config: SyncConfig) {
  const l: LdapSide = structuredClone(ldap);
  const p: PalisadeSide = structuredClone(palisade);
  let nextId = Math.max(0, ...p.users.map((u) => u.id)) + 1;
  const account = (username: string) => p.users.find((u) => lower(u.username) === lower(username));
  const byId = (id: number) => p.users.find((u) => u.id === id);
  const entry = (dn: string) => l.users.find((u) => lower(u.dn) === lower(dn));
  const ldapGroup = (name: string) => l.groups.find((g) => lower(g.name) === lower(name));
  const renameMembers = (from: string, to: string) => {
    for (const g of l.groups) g.members = g.members.map((m) => (lower(m) === lower(from) ? to : m));
  };
  for (const c of changes) {
    if (c.side === 'palisade') {
      switch (c.kind) {
        case 'create_user':
          p.users.push({ ...c.user, id: nextId++, ldapDn: c.dn, isActive: c.isActive, groups: [] });
          break;
        case 'update_user':
          Object.assign(byId(c.userId) ?? {}, c.set);
          break;
        case 'link_user':
          Object.assign(byId(c.userId) ?? {}, { ldapDn: c.dn });
          break;
        case 'disable_user':
        case 'enable_user':
          Object.assign(byId(c.userId) ?? {}, { isActive: c.kind === 'enable_user' });
          break;
        case 'delete_user':
          p.users = p.users.filter((u) => u.id !== c.userId);
          break;
        case 'create_group':
          p.groups.push({ name: c.group, isAdmin: false });
          break;
        case 'add_member':
        case 'remove_member': {
          const u = account(c.username);
          if (!u) throw new Error(`no account ${c.username}`);
          u.groups = u.groups.filter((g) => lower(g) !== lower(c.group));
          if (c.kind === 'add_member') u.groups.push(c.group);
          break;
        }
      }
    } else {
      switch (c.kind) {
        case 'create_user':
          l.users.push({ ...c.user, dn: c.dn, disabled: config.ldapHasDisabledState ? false : undefined });
          break;
        case 'update_user': {
          const e = entry(c.dn);
          if (!e) throw new Error(`no entry ${c.dn}`);
          if (c.set.username !== undefined) renameMembers(e.username, c.set.username);
          Object.assign(e, c.set);
          break;
        }
        case 'rename_user': {
          const e = entry(c.dn);
          if (!e) throw new Error(`no entry ${c.dn}`);
          e.dn = c.newDn;
          break;
        }
        case 'disable_user':
        case 'enable_user':
          Object.assign(entry(c.dn) ?? {}, { disabled: c.kind === 'disable_user' });
          break;
        case 'delete_user': {
          const gone = entry(c.dn);
          l.users = l.users.filter((u) => u !== gone);
          if (gone) for (const g of l.groups) g.members = g.members.filter((m) => lower(m) !== lower(gone.username));
          break;
        }
        case 'create_group':
          l.groups.push({ name: c.group, members: [...c.members] });
          break;
        case 'add_member':
        case 'remove_member': {
          const g = ldapGroup(c.group);
          if (!g) throw new Error(`no group ${c.group}`);
          g.members = g.members.filter((m) => lower(m) !== lower(c.username));
          if (c.kind === 'add_member') g.members.push(c.username);
          break;
        }
      }
    }
  }
  return { ldap: l, palisade: p };
}
