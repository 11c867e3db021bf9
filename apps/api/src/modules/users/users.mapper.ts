import { USER_LANGUAGES, type User, type UserLanguage } from '@palisade/contracts';
import { isoTimestamp } from '#src/db/rows.js';
import type { UserListRow, UserRecord } from './users.repo.js';

const isUserLanguage = (value: string | null): value is UserLanguage => (USER_LANGUAGES as readonly (string | null)[]).includes(value);

export function toUser(record: UserRecord): User {
  return {
    id: record.id,
    username: record.username,
    first_name: record.firstName,
    last_name: record.lastName,
    email: record.email,
    ...(record.phone ? { phone: record.phone } : {}),
    is_active: record.isActive,
    is_admin: record.isAdmin,
    groups: record.groups,
    mfa_enabled: record.mfaEnabled,
    ...(record.mfaMethod ? { mfa_method: record.mfaMethod as NonNullable<User['mfa_method']> } : {}),
    enrolled: record.enrolled,
    has_password: record.passwordHash !== null,
    ...(isUserLanguage(record.language) ? { language: record.language } : {}),
    created_at: record.createdAt.toISOString(),
  };
}

/** The list's rows become users without intermediate objects: it maps 50–200 rows per request. */
export function listRowToUser(row: UserListRow): User {
  const user: User = {
    id: row.id,
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    is_active: row.is_active,
    is_admin: row.is_admin,
    groups: row.groups,
    mfa_enabled: row.mfa_enabled,
    enrolled: row.enrolled,
    has_password: row.has_password,
    created_at: isoTimestamp(row.created_at),
  };
  if (row.phone) user.phone = row.phone;
  if (isUserLanguage(row.language)) user.language = row.language;
  if (row.mfa_method) user.mfa_method = row.mfa_method as NonNullable<User['mfa_method']>;
  return user;
}
