import { ApiError } from '@palisade/api-client';
import { CreateUserBodySchema, NetworkBodySchema } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { translate } from '@/i18n/translate';
import { fieldMessage, issuesFromProblem, issuesFromZod } from './field-errors';
import { problemMessageKey } from './problem-message';

const t = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) => translate('en', key, params);

describe('field errors', () => {
  it('reads codes and limits from the contracts schema issues', () => {
    const result = CreateUserBodySchema.safeParse({
      username: '1x',
      first_name: '',
      last_name: 'a'.repeat(200),
      email: 'nope',
      password: 'short',
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    const issues = issuesFromZod(result.error);
    expect(issues.username?.code).toBe('username.starts_with_number');
    expect(issues.first_name?.code).toBe('required');
    expect(issues.last_name).toEqual({ code: 'max_length', params: { max: 128 } });
    expect(issues.email?.code).toBe('email');
    expect(issues.password).toEqual({ code: 'min_length', params: { min: 8 } });
  });

  it('maps server errors[] to fields (first error per field wins)', () => {
    const error = new ApiError(400, {
      code: 'validation.failed',
      errors: [
        { path: 'email', code: 'email_taken', message: 'Email already in use' },
        { path: 'body.password', code: 'password.digit', message: '…' },
        { path: 'password', code: 'password.special', message: '…' },
      ],
    });
    expect(issuesFromProblem(error)).toEqual({ email: { code: 'email_taken' }, password: { code: 'password.digit' } });
    expect(issuesFromProblem(new ApiError(401, { code: 'auth.unauthenticated' }))).toBeUndefined();
  });

  it('renders spec §5 wording, with the limit when known', () => {
    expect(fieldMessage(t, { code: 'required' })).toBe('Field required');
    expect(fieldMessage(t, { code: 'max_length', params: { max: 64 } })).toBe('Maximum length exceeded (max. 64)');
    expect(fieldMessage(t, { code: 'max_length' })).toBe('Maximum length exceeded');
    expect(fieldMessage(t, { code: 'username.forbidden_characters' })).toBe('Forbidden characters');
    expect(fieldMessage(t, { code: 'something.new' })).toBe('Invalid value');
  });

  it('names the bound of numeric fields, from the server or from the contracts schema', () => {
    expect(fieldMessage(t, { code: 'min_value', params: { min: 1 } })).toBe('Minimum value is 1');
    expect(fieldMessage(t, { code: 'max_value', params: { max: 65535 } })).toBe('Maximum value is 65535');
    expect(fieldMessage(t, { code: 'min_value' })).toBe('Value is too small');
    const pl = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) => translate('pl', key, params);
    const ko = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) => translate('ko', key, params);
    expect(fieldMessage(pl, { code: 'min_value', params: { min: 60 } })).toBe('Minimalna wartość to 60');
    expect(fieldMessage(ko, { code: 'max_value', params: { max: 200 } })).toBe('최댓값은 200입니다');
    const server = new ApiError(400, {
      code: 'validation.failed',
      errors: [{ path: 'port', code: 'max_value', message: 'Maximum value is 65535', params: { max: 65535 } }],
    });
    const port = issuesFromProblem(server)?.port;
    expect(port && fieldMessage(t, port)).toBe('Maximum value is 65535');
    const local = NetworkBodySchema.shape.keepalive_interval.safeParse(-1);
    const keepalive = local.success ? undefined : issuesFromZod(local.error)[''];
    expect(keepalive && fieldMessage(t, keepalive)).toBe('Minimum value is 0');
  });

  it('names the user or group that was not found, and says a reserved name or a non-http logo address is refused', () => {
    const notFound = new ApiError(404, {
      code: 'user.not_found',
      errors: [{ path: 'username', code: 'user.not_found', message: 'User not found: ghost', params: { username: 'ghost' } }],
    });
    const issue = issuesFromProblem(notFound)?.username;
    expect(issue && fieldMessage(t, issue)).toBe('User not found: ghost');
    expect(fieldMessage(t, { code: 'reserved' })).toBe('This name is reserved');
    expect(fieldMessage(t, { code: 'url.http' })).toBe('Use an http(s) address or a path starting with /');
  });

  it('maps problem codes, falling back to the generic message', () => {
    expect(problemMessageKey(new ApiError(429, { code: 'auth.too_many_attempts' }))).toBe('error.auth.too_many_attempts');
    expect(problemMessageKey(new ApiError(500, { code: 'never.heard_of' }))).toBe('error.generic');
    expect(problemMessageKey(new TypeError('Failed to fetch'))).toBe('error.network');
  });
});
