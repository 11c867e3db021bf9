import { DEFAULT_ENROLLMENT_SETTINGS } from '@palisade/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';

describe('enrollment settings', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const fields = (res: { json(): { errors?: { path: string; code: string }[] } }) =>
    (res.json().errors ?? []).map((e) => `${e.path}:${e.code}`);

  it('starts with the defaults and PATCH changes only the fields it names', async () => {
    expect((await t.request('GET', '/api/v1/settings', { cookie: admin })).json()).toMatchObject(DEFAULT_ENROLLMENT_SETTINGS);
    const patch = {
      enrollment_welcome_message: '# Welcome\n\nRead **this**.',
      enrollment_welcome_email_subject: '  Welcome aboard  ',
      enrollment_welcome_email: 'Hello *there*',
      enrollment_use_welcome_message_as_email: false,
      enrollment_vpn_step_optional: false,
      enrollment_token_lifetime_hours: 72,
    };
    const res = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: patch });
    expect(res.statusCode).toBe(200);
    const expected = { ...patch, enrollment_welcome_email_subject: 'Welcome aboard' };
    expect(res.json()).toMatchObject(expected);
    expect((await t.request('GET', '/api/v1/settings', { cookie: admin })).json()).toMatchObject(expected);
    const other = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { instance_name: 'Acme' } });
    expect(other.json()).toMatchObject(expected);
  });

  it('refuses a lifetime outside 1..720 hours, a multi-line subject and a wrong type, changing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ enrollment_token_lifetime_hours: 0 }, 'enrollment_token_lifetime_hours:min_value'],
      [{ enrollment_token_lifetime_hours: 721 }, 'enrollment_token_lifetime_hours:max_value'],
      [{ enrollment_token_lifetime_hours: 1.5 }, 'enrollment_token_lifetime_hours:number'],
      [{ enrollment_welcome_email_subject: 'a\nBcc: x@example.com' }, 'enrollment_welcome_email_subject:invalid'],
      [{ enrollment_vpn_step_optional: 'no' }, 'enrollment_vpn_step_optional:invalid_type'],
      [{ enrollment_welcome_message: 'x'.repeat(20_001) }, 'enrollment_welcome_message:max_length'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload });
      expect(res.statusCode, field).toBe(400);
      expect(fields(res), field).toContain(field);
    }
    expect((await t.request('GET', '/api/v1/settings', { cookie: admin })).json()).toMatchObject(DEFAULT_ENROLLMENT_SETTINGS);
  });
});
