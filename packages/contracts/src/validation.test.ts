import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CreateGroupBodySchema } from './groups.js';
import { PatchSettingsBodySchema, UpdateSettingsBodySchema } from './settings.js';
import { CreateUserBodySchema, UpdateUserBodySchema, UserListQuerySchema } from './users.js';
import {
  emailSchema,
  groupNameSchema,
  isReservedUsername,
  LIMITS,
  passwordSchema,
  personNameSchema,
  phoneSchema,
  RESERVED_GROUP_NAMES,
  RESERVED_USERNAMES,
  shadowedSegments,
  takesGroupName,
  takesUsername,
  usernameSchema,
} from './validation.js';
import { FIELD_CODES } from './errors.js';

/** The field codes a schema reports for a value (its issues' messages), or [] when valid. */
const codes = (schema: z.ZodType, value: unknown): string[] => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('usernameSchema', () => {
  it.each(['a', 'admin', 'John.Doe', 'user_1', 'a-b', 'x'.repeat(LIMITS.usernameMax), 'A1'])('accepts %j', (v) => {
    expect(codes(usernameSchema, v)).toEqual([]);
  });
  it('trims surrounding spaces', () => {
    expect(usernameSchema.parse('  bob  ')).toBe('bob');
  });
  it.each([
    ['1abc', ['username.starts_with_number']],
    ['9', ['username.starts_with_number']],
    ['ab c', ['username.forbidden_characters']],
    ['a@b', ['username.forbidden_characters']],
    ['a/b', ['username.forbidden_characters']],
    ['zażółć', ['username.forbidden_characters']],
    ['a\u0000b', ['username.forbidden_characters']],
    ['😀', ['username.forbidden_characters']],
    ['1 a', ['username.starts_with_number', 'username.forbidden_characters']],
    ['', ['required']],
    ['   ', ['required']],
    ['x'.repeat(LIMITS.usernameMax + 1), ['max_length']],
    [undefined, ['required']],
    [42, ['invalid_type']],
  ])('refuses %j with %j', (v, expected) => {
    expect(codes(usernameSchema, v)).toEqual(expected);
  });
});

describe('passwordSchema', () => {
  it.each(['Passw0rd!', 'Aa1!aaaa', `Aa1!${'x'.repeat(LIMITS.passwordMax - 4)}`, 'Zażółć-1gęś'])('accepts %j', (v) => {
    expect(codes(passwordSchema, v)).toEqual([]);
  });
  it.each([
    ['Aa1!aaa', ['min_length']],
    ['password', ['password.digit', 'password.special', 'password.uppercase']],
    ['Password1', ['password.special']],
    ['password1!', ['password.uppercase']],
    ['PASSWORD1!', ['password.lowercase']],
    ['Password!!', ['password.digit']],
    [`Aa1!${'x'.repeat(LIMITS.passwordMax - 3)}`, ['max_length']],
    [undefined, ['required']],
    [12345678, ['invalid_type']],
  ])('refuses %j with %j', (v, expected) => {
    expect(codes(passwordSchema, v)).toEqual(expected);
  });
  it('does not trim: spaces count as special characters', () => {
    expect(passwordSchema.parse(' Passw0rd ')).toBe(' Passw0rd ');
  });
});

describe('emailSchema', () => {
  it.each(['a@example.com', 'first.last+tag@sub.example.org', 'UPPER@EXAMPLE.COM'])('accepts %j', (v) => {
    expect(codes(emailSchema, v)).toEqual([]);
  });
  it.each([
    ['plain', ['email']],
    ['a@b', ['email']],
    ['a@@example.com', ['email']],
    ['a b@example.com', ['email']],
    ['ąę@example.com', ['email']],
    ['', ['required']],
    [`${'a'.repeat(250)}@example.com`, ['max_length']],
  ])('refuses %j with %j', (v, expected) => {
    expect(codes(emailSchema, v)).toEqual(expected);
  });
});

describe('phoneSchema', () => {
  it.each(['', '+48 123 456 789', '(555) 123-4567', '555.123.45', '12345'])('accepts %j', (v) => {
    expect(codes(phoneSchema, v)).toEqual([]);
  });
  it.each([
    ['1234', ['phone']],
    ['phone', ['phone']],
    ['+1 555 CALL NOW', ['phone']],
    ['++48 123 456', ['phone']],
    ['1'.repeat(33), ['max_length']],
    [48123, ['invalid_type']],
  ])('refuses %j with %j', (v, expected) => {
    expect(codes(phoneSchema, v)).toEqual(expected);
  });
});

describe('group and person names', () => {
  it('group names allow letters, digits, spaces, dots, dashes and underscores', () => {
    expect(codes(groupNameSchema, 'Dev Team_1.a-b')).toEqual([]);
    expect(codes(groupNameSchema, 'a/b')).toEqual(['no_special_chars']);
    expect(codes(groupNameSchema, '')).toEqual(['required']);
    expect(codes(groupNameSchema, 'x'.repeat(65))).toEqual(['max_length']);
  });
  it('person names accept any non-blank text up to 128 characters', () => {
    expect(codes(personNameSchema, 'Zoë 😀 O’Brien')).toEqual([]);
    expect(codes(personNameSchema, ' ')).toEqual(['required']);
    expect(codes(personNameSchema, 'x'.repeat(129))).toEqual(['max_length']);
  });
});

describe('request bodies', () => {
  const user = { username: 'alice', first_name: 'Alice', last_name: 'L', email: 'alice@example.com' };

  it('CreateUserBody: password and phone optional, unknown fields refused', () => {
    expect(codes(CreateUserBodySchema, user)).toEqual([]);
    expect(codes(CreateUserBodySchema, { ...user, password: 'Passw0rd!', phone: '+1 555 0100' })).toEqual([]);
    expect(CreateUserBodySchema.safeParse({ ...user, is_admin: true }).error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('UpdateUserBody accepts groups and is_active', () => {
    expect(codes(UpdateUserBodySchema, { ...user, groups: ['admin'], is_active: false })).toEqual([]);
    expect(codes(UpdateUserBodySchema, { ...user, is_active: 'no' })).toEqual(['invalid_type']);
  });

  it('CreateGroupBody', () => {
    expect(codes(CreateGroupBodySchema, { name: 'staff', members: ['a'], is_admin: true })).toEqual([]);
    expect(codes(CreateGroupBodySchema, { name: 'staff', members: 'a' })).toEqual(['invalid_type']);
  });

  it('settings: PUT needs every field, PATCH any subset; logo URLs are http(s), a path or empty', () => {
    const full = {
      instance_name: 'X',
      main_logo_url: '',
      nav_logo_url: '/logo.svg',
      wireguard_enabled: true,
      webhooks_enabled: true,
      worker_enabled: true,
      openid_enabled: true,
    };
    expect(codes(UpdateSettingsBodySchema, full)).toEqual([]);
    expect(codes(UpdateSettingsBodySchema, { instance_name: 'X' }).length).toBeGreaterThan(0);
    expect(codes(PatchSettingsBodySchema, {})).toEqual([]);
    expect(codes(PatchSettingsBodySchema, { main_logo_url: 'https://cdn.example.com/a.png' })).toEqual([]);
    expect(codes(PatchSettingsBodySchema, { main_logo_url: 'javascript:alert(1)' })).toEqual(['url.http']);
    expect(codes(PatchSettingsBodySchema, { main_logo_url: 'data:image/png;base64,AAAA' })).toEqual(['url.http']);
  });

  it('user list query: defaults, coercion and limits', () => {
    expect(UserListQuerySchema.parse({})).toEqual({ page: 1, per_page: 50, filter: 'all', sort: 'username' });
    expect(UserListQuerySchema.parse({ page: '3', per_page: '200', sort: '-created_at', filter: 'admins', search: ' bob ' })).toEqual({
      page: 3,
      per_page: 200,
      sort: '-created_at',
      filter: 'admins',
      search: 'bob',
    });
    expect(codes(UserListQuerySchema, { page: '0' })).toEqual(['min_value']);
    expect(codes(UserListQuerySchema, { per_page: '201' })).toEqual(['max_value']);
    expect(codes(UserListQuerySchema, { page: '1.5' })).toEqual(['number']);
    expect(codes(UserListQuerySchema, { sort: 'password' })).toEqual(['invalid']);
  });
});

describe('field codes', () => {
  it('every code a field rule can report is a declared FIELD_CODE', () => {
    const samples: [z.ZodType, unknown][] = [
      [usernameSchema, '1 a'],
      [usernameSchema, ''],
      [usernameSchema, 'x'.repeat(99)],
      [passwordSchema, 'a'],
      [passwordSchema, 'A'],
      [emailSchema, 'x'],
      [phoneSchema, 'x'],
      [groupNameSchema, '/'],
      [UserListQuerySchema, { page: 'x', per_page: '0', sort: 'x' }],
    ];
    for (const [schema, value] of samples) {
      for (const code of codes(schema, value)) expect(FIELD_CODES as readonly string[]).toContain(code);
    }
  });
});

describe('reserved names', () => {
  it('derives the usernames shadowed by static routes from the permission table', () => {
    expect(RESERVED_USERNAMES).toEqual(['available', 'change_password', 'network', 'user']);
    expect(RESERVED_GROUP_NAMES).toEqual([]);
  });

  it('reserves a segment only where a name parameter sits beside it', () => {
    const routes = ['GET /api/v1/user/:username', 'POST /api/v1/user/export', 'GET /api/v1/user/:username/keys', 'GET /api/v1/other/x'];
    expect(shadowedSegments(routes, takesUsername)).toEqual(['export']);
    expect(shadowedSegments(['PUT /api/v1/group/:name', 'POST /api/v1/group/Bulk'], takesGroupName)).toEqual(['bulk']);
    expect(shadowedSegments(['PUT /api/v1/openid/provider/:name', 'GET /api/v1/openid/provider/x'], takesGroupName)).toEqual([]);
  });

  it('refuses a reserved username for a new account (any case), not for an update of an existing one', () => {
    expect(codes(CreateUserBodySchema.shape.username, 'Network')).toEqual(['reserved']);
    expect(codes(CreateUserBodySchema.shape.username, 'networks')).toEqual([]);
    expect(codes(UpdateUserBodySchema.shape.username, 'network')).toEqual([]);
    expect(isReservedUsername(' CHANGE_PASSWORD ')).toBe(true);
  });
});
