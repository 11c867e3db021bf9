import { UserSchema } from '@palisade/contracts';
import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileJsonSerializer, createResponseSerializerCompiler } from './response-serializer.js';

const SECRET = 'hunter2-secret-value';

const user = {
  id: 7,
  username: 'anna',
  first_name: 'Anna',
  last_name: 'Nowak',
  email: 'anna@example.com',
  is_active: true,
  is_admin: false,
  groups: ['staff'],
  mfa_enabled: true,
  enrolled: true,
  has_password: true,
  created_at: '2026-11-24T07:00:00.000Z',
};

const ListSchema = z.object({ items: z.array(UserSchema), total: z.number().int() });

async function appWith(check: boolean, handler: () => unknown, schema: z.ZodType = ListSchema) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializerCompiler({ check }));
  app.get('/list', { schema: { response: { 200: schema } } }, async () => handler());
  await app.ready();
  return app;
}

describe('compiled response serializer', () => {
  it('writes only declared fields, at every depth, with and without the zod check', async () => {
    for (const check of [true, false]) {
      const app = await appWith(check, () => ({
        items: [{ ...user, password_hash: SECRET, totp_secret: SECRET }],
        total: 1,
        session_token: SECRET,
      }));
      const res = await app.inject({ method: 'GET', url: '/list' });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(SECRET);
      expect(res.json()).toEqual({ items: [user], total: 1 });
    }
  });

  it('still fails a response that breaks its schema while checking; never leaks without the check', async () => {
    const broken = () => ({ items: [{ ...user, id: 'seven', password_hash: SECRET }], total: 1 });
    const checked = await appWith(true, broken);
    expect((await checked.inject({ method: 'GET', url: '/list' })).statusCode).toBe(500);
    const unchecked = await appWith(false, broken);
    expect((await unchecked.inject({ method: 'GET', url: '/list' })).body).not.toContain(SECRET);
    const missing = await appWith(false, () => ({ items: [{ ...user, username: undefined, password_hash: SECRET }], total: 1 }));
    const res = await missing.inject({ method: 'GET', url: '/list' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain(SECRET);
  });

  it('gives the same JSON as zod for a valid response (required fields first)', () => {
    const serialize = compileJsonSerializer(ListSchema);
    const data = { items: [user, { ...user, id: 8, phone: '+48 600 000 000', mfa_method: 'totp' as const }], total: 2 };
    expect(JSON.parse(serialize?.(data) ?? 'null')).toEqual(ListSchema.parse(data));
  });

  it('keeps zod for what JSON Schema cannot express, which strips as well', async () => {
    const union = z.union([z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b'), b: z.number() })]);
    const transformed = z.object({ at: z.date().transform((d) => d.toISOString()) });
    expect(compileJsonSerializer(union)).toBeUndefined();
    expect(compileJsonSerializer(transformed)).toBeUndefined();
    for (const check of [true, false]) {
      const app = await appWith(check, () => ({ kind: 'b', b: 2, secret: SECRET }), union);
      const res = await app.inject({ method: 'GET', url: '/list' });
      expect(res.json()).toEqual({ kind: 'b', b: 2 });
    }
  });
});
