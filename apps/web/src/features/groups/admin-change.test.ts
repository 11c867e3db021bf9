import type { GroupInfo } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { demotesSelf, newAdmins, withGroupChanged, withMemberships, withoutGroup, withoutMember } from './admin-change';

const group = (id: number, name: string, is_admin: boolean, members: string[]) => ({ id, name, is_admin, members }) as GroupInfo;
const groups = [group(1, 'admin', true, ['anna', 'bob']), group(2, 'ops', false, ['anna', 'carl']), group(3, 'root', true, ['bob'])];

describe('admin-change', () => {
  it('leaving the only admin group demotes; leaving one of two does not', () => {
    expect(demotesSelf('anna', groups, withoutMember(groups, 'admin', 'anna'))).toBe(true);
    expect(demotesSelf('bob', groups, withoutMember(groups, 'admin', 'bob'))).toBe(false);
    expect(demotesSelf('anna', groups, withoutMember(groups, 'ops', 'anna'))).toBe(false);
  });

  it('clearing the admin flag or deleting the group demotes its members', () => {
    expect(demotesSelf('anna', groups, withGroupChanged(groups, 'admin', { name: 'admins', is_admin: false }))).toBe(true);
    expect(demotesSelf('anna', groups, withGroupChanged(groups, 'admin', { name: 'admins', is_admin: true }))).toBe(false);
    expect(demotesSelf('anna', groups, withoutGroup(groups, 'admin'))).toBe(true);
  });

  it('editing own memberships', () => {
    expect(demotesSelf('anna', groups, withMemberships(groups, 'anna', ['ops']))).toBe(true);
    expect(demotesSelf('anna', groups, withMemberships(groups, 'anna', ['ops', 'root']))).toBe(false);
  });

  it('names who becomes an administrator', () => {
    expect(newAdmins(groups, withMemberships(groups, 'carl', ['ops', 'admin']))).toEqual(['carl']);
    expect(newAdmins(groups, withGroupChanged(groups, 'ops', { name: 'ops', is_admin: true }))).toEqual(['carl']);
    expect(newAdmins(groups, withoutMember(groups, 'admin', 'anna'))).toEqual([]);
  });
});
