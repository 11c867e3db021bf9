import type { UpdateUserBody } from '@palisade/contracts';
import type { UserRecord, UserRow } from './users.repo.js';

/** The activity-log object of a user account. */
export const userObject = (user: Pick<UserRow, 'id' | 'username'>) => ({ type: 'user', id: user.id, name: user.username });

/** Who the account is, for events a webhook receiver turns into "user X was created/deleted". */
export const userIdentity = (user: Pick<UserRow, 'username' | 'email' | 'firstName' | 'lastName'>) => ({
  username: user.username,
  email: user.email,
  first_name: user.firstName,
  last_name: user.lastName,
});

/** The fields an update changes (names only; values may be personal data). */
export function changedUserFields(current: UserRecord, body: UpdateUserBody, groupsChanged: boolean, statusChanged: boolean): string[] {
  const fields: string[] = [];
  if (body.username !== current.username) fields.push('username');
  if (body.first_name !== current.firstName) fields.push('first_name');
  if (body.last_name !== current.lastName) fields.push('last_name');
  if (body.email !== current.email) fields.push('email');
  if ((body.phone || null) !== current.phone) fields.push('phone');
  if (body.language !== undefined && body.language !== current.language) fields.push('language');
  if (statusChanged) fields.push('is_active');
  if (groupsChanged) fields.push('groups');
  return fields;
}
