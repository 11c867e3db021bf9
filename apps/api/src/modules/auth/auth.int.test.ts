import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '#test/helpers.js';

describe('POST /api/v1/auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signs the admin in and sets an HttpOnly SameSite=Lax cookie', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ username: 'admin', is_admin: true, groups: ['admin'] });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('answers 401 with auth.invalid_credentials for a wrong password', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: 'nope' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.json().code).toBe('auth.invalid_credentials');
  });
});
