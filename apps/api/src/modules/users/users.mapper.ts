import type { MfaRequired, User } from '@palisade/contracts';
import type { UserListRow, UserRecord } from './users.repo.js';

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
    created_at: record.createdAt.toISOString(),
  };
}

export function mfaMethodsOf(record: Pick<UserRecord, 'mfaMethod'>): MfaRequired['mfa'] {
  const method = (record.mfaMethod ?? 'totp') as MfaRequired['mfa']['default_method'] & string;
  return { methods: [method], default_method: method };
}

export function listRowToUser(row: UserListRow): User {
  return {
    id: row.id,
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    ...(row.phone ? { phone: row.phone } : {}),
    is_active: row.is_active,
    is_admin: row.is_admin,
    groups: row.groups,
    mfa_enabled: row.mfa_enabled,
    ...(row.mfa_method ? { mfa_method: row.mfa_method as NonNullable<User['mfa_method']> } : {}),
    enrolled: row.enrolled,
    has_password: row.has_password,
    created_at: new Date(row.created_at).toISOString(),
  };
}
