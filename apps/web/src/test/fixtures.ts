import type { User } from '@palisade/contracts';

/** The signed-in administrator the console unit tests boot with. */
export const ADMIN_USER: User = {
  id: 1,
  username: 'admin',
  first_name: 'Ada',
  last_name: 'Admin',
  email: 'admin@example.com',
  is_active: true,
  is_admin: true,
  groups: ['admin'],
  mfa_enabled: false,
  enrolled: true,
  has_password: true,
  created_at: '2026-11-21T10:00:00Z',
};
