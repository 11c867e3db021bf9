import { ApiError } from '@palisade/api-client';
import { CreateUserBodySchema } from '@palisade/contracts';
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

  it('maps problem codes, falling back to the generic message', () => {
    expect(problemMessageKey(new ApiError(429, { code: 'auth.too_many_attempts' }))).toBe('error.auth.too_many_attempts');
    expect(problemMessageKey(new ApiError(500, { code: 'never.heard_of' }))).toBe('error.generic');
    expect(problemMessageKey(new TypeError('Failed to fetch'))).toBe('error.network');
  });
});
