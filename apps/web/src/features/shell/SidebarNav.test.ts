import { describe, expect, it } from 'vitest';
import { activeNavEntry } from './SidebarNav';

const admin = { username: 'ada', is_admin: true };
const member = { username: 'bob', is_admin: false };

describe('activeNavEntry', () => {
  it("marks Users on another user's pages for admins, My profile on one's own", () => {
    expect(activeNavEntry('/users/anna', admin)).toBe('/users');
    expect(activeNavEntry('/users/anna/add-device', admin)).toBe('/users');
    expect(activeNavEntry('/users/ada', admin)).toBe('profile');
    expect(activeNavEntry('/users/bob', member)).toBe('profile');
    expect(activeNavEntry('/users/anna', member)).toBeUndefined();
  });

  it('marks the section of deeper pages', () => {
    expect(activeNavEntry('/locations/3/gateway', admin)).toBe('/locations');
    expect(activeNavEntry('/overview/2', admin)).toBe('/overview');
    expect(activeNavEntry('/users', admin)).toBe('/users');
    expect(activeNavEntry('/settings', admin)).toBe('/settings');
    expect(activeNavEntry('/acl/rules/7', admin)).toBe('/acl');
    expect(activeNavEntry('/acl/aliases', admin)).toBe('/acl');
  });

  it('marks the activity log, whose entry every user has, on both of its tabs', () => {
    expect(activeNavEntry('/activity-log', member)).toBe('/activity-log');
    expect(activeNavEntry('/activity-log/live', member)).toBe('/activity-log');
    expect(activeNavEntry('/activity-log/live', admin)).toBe('/activity-log');
  });
});
