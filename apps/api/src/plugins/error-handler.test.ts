import { CreateUserBodySchema, UserListQuerySchema } from '@palisade/contracts';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { HttpProblem } from '#src/lib/problem.js';
import { errorHandlerPlugin, loggableError, toFieldErrors, toProblem } from '#src/plugins/error-handler.js';

describe('toFieldErrors', () => {
  it('keeps contract field codes and their English messages', () => {
    expect(
      toFieldErrors(
        [
          { keyword: 'custom', instancePath: '/username', message: 'username.starts_with_number', params: {} },
          { keyword: 'invalid_type', instancePath: '/first_name', message: 'required', params: { expected: 'string' } },
          { keyword: 'too_small', instancePath: '/password', message: 'min_length', params: { origin: 'string', minimum: 8 } },
        ],
        'body',
      ),
    ).toEqual([
      { path: 'username', code: 'username.starts_with_number', message: 'Cannot start from a number' },
      { path: 'first_name', code: 'required', message: 'Field required' },
      { path: 'password', code: 'min_length', message: 'Minimum length not reached', params: { min: 8 } },
    ]);
  });

  it('splits unrecognized keys into one unknown_field error each', () => {
    expect(
      toFieldErrors(
        [{ keyword: 'unrecognized_keys', instancePath: '/', message: 'Unrecognized keys', params: { keys: ['a', 'b'] } }],
        'body',
      ),
    ).toEqual([
      { path: 'a', code: 'unknown_field', message: 'Unknown field' },
      { path: 'b', code: 'unknown_field', message: 'Unknown field' },
    ]);
  });

  it('falls back on the zod issue kind when the message is not a field code', () => {
    const items = [
      { keyword: 'invalid_type', instancePath: '/a', message: 'Invalid input: expected string, received undefined', params: {} },
      { keyword: 'invalid_type', instancePath: '/b', message: 'Invalid input: expected string, received number', params: {} },
      { keyword: 'too_big', instancePath: '/c', message: 'Too big', params: { origin: 'string', maximum: 64 } },
      { keyword: 'too_big', instancePath: '/d', message: 'Too big', params: { origin: 'number', maximum: 200 } },
      { keyword: 'too_small', instancePath: '/e', message: 'Too small', params: { origin: 'int', minimum: 1 } },
      { keyword: 'too_small', instancePath: '/f/0', message: 'Too small', params: { origin: 'array', minimum: 1 } },
      { keyword: 'invalid_value', instancePath: '/g', message: 'Invalid option', params: {} },
    ];
    expect(toFieldErrors(items, 'body').map((e) => [e.path, e.code, e.params])).toEqual([
      ['a', 'required', undefined],
      ['b', 'invalid_type', undefined],
      ['c', 'max_length', { max: 64 }],
      ['d', 'max_value', { max: 200 }],
      ['e', 'min_value', { min: 1 }],
      ['f.0', 'min_length', { min: 1 }],
      ['g', 'invalid', undefined],
    ]);
  });

  it('prefixes paths outside the body with their part of the request', () => {
    const item = { keyword: 'too_big', instancePath: '/per_page', message: 'max_value', params: { origin: 'number', maximum: 200 } };
    expect(toFieldErrors([item], 'querystring')[0]?.path).toBe('querystring.per_page');
    expect(toFieldErrors([item], 'params')[0]?.path).toBe('params.per_page');
    expect(toFieldErrors([{ ...item, instancePath: '' }], 'body')[0]?.path).toBe('(root)');
  });
});

describe('toProblem', () => {
  it('passes HttpProblems through and maps Fastify 4xx errors to stable codes', () => {
    const problem = new HttpProblem(409, 'user.last_admin', 'x');
    expect(toProblem(problem)).toBe(problem);
    const make = (statusCode: number) => Object.assign(new Error('fastify says'), { statusCode });
    expect(toProblem(make(413))).toMatchObject({ status: 413, code: 'request.too_large' });
    expect(toProblem(make(415))).toMatchObject({ status: 415, code: 'request.unsupported_media_type' });
    expect(toProblem(make(400))).toMatchObject({ status: 400, code: 'request.malformed' });
    expect(toProblem(make(404))).toMatchObject({ status: 404, code: 'request.not_found' });
  });

  it('leaves 5xx and unknown errors to the generic handler', () => {
    expect(toProblem(new Error('boom'))).toBeUndefined();
    expect(toProblem(Object.assign(new Error('db down'), { statusCode: 503 }))).toBeUndefined();
  });
});

describe('loggableError', () => {
  it('drops the bound parameters of a query error but keeps the SQL, the cause and the frames', () => {
    const cause = new Error('duplicate key value');
    const queryError = Object.assign(new Error('Failed query: update users set password_hash = $1\nparams: $argon2id$secret'), {
      name: 'DrizzleQueryError',
      query: 'update users set password_hash = $1',
      params: ['$argon2id$secret'],
      cause,
    });
    const safe = loggableError(queryError);
    expect(safe.message).toBe('Failed query: update users set password_hash = $1');
    expect(safe.cause).toBe(cause);
    expect(safe.name).toBe('DrizzleQueryError');
    expect(JSON.stringify({ ...safe, stack: safe.stack, message: safe.message })).not.toContain('$argon2id$secret');
    expect(safe.stack).toMatch(/\n\s+at /);
  });

  it('leaves other errors alone', () => {
    const plain = new Error('boom');
    expect(loggableError(plain)).toBe(plain);
  });
});

describe('error handler on a real Fastify instance', () => {
  async function app() {
    const instance = Fastify({ logger: false });
    instance.setValidatorCompiler(validatorCompiler);
    instance.setSerializerCompiler(serializerCompiler);
    await instance.register(errorHandlerPlugin);
    instance.post('/user', { schema: { body: CreateUserBodySchema } }, async () => ({ ok: true }));
    instance.get('/list', { schema: { querystring: UserListQuerySchema } }, async () => ({ ok: true }));
    instance.get('/boom', async () => {
      throw new Error('secret internals: password=hunter2');
    });
    return instance;
  }

  it('answers validation failures as problem+json with errors[]', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/user', payload: { username: '1a', email: 'x', zz: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json();
    expect(body).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400, code: 'validation.failed' });
    expect(body.errors.map((e: { path: string; code: string }) => `${e.path}:${e.code}`)).toEqual(
      expect.arrayContaining(['username:username.starts_with_number', 'first_name:required', 'email:email', 'zz:unknown_field']),
    );
    const query = await (await app()).inject({ method: 'GET', url: '/list?per_page=500' });
    expect(query.json().errors).toEqual([
      expect.objectContaining({ path: 'querystring.per_page', code: 'max_value', params: { max: 200 }, message: 'Maximum value is 200' }),
    ]);
  });

  it('hides internals behind a generic 500', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ status: 500, code: 'internal', detail: 'Error has occurred.' });
    expect(res.body).not.toContain('hunter2');
  });
});
