import { sql } from 'drizzle-orm';
import { queryRows } from '#src/db/rows.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';
import { CSV_COLUMNS, csvCell } from './activity-log.export.js';

describe('csvCell', () => {
  it('quotes per RFC 4180 and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });
});

describe('GET /activity_log/export', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let aliceId: number;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    const [row] = await queryRows<{ id: number }>(t.database.db, sql`select id from users where username = 'alice'`);
    aliceId = row!.id;
    await t.database.db.execute(sql`delete from events`);
    await t.database.db.execute(sql`insert into events (occurred_at, actor_type, user_id, username, module, type, object_name, details)
      values ('2026-01-01T00:00:00Z', 'user', 1, 'admin', 'users', 'user.modified', '=cmd|'' /C calc''!A0', '{"note": "a, \\"b\\"\\nc"}'),
             ('2026-01-02T00:00:00Z', 'user', ${aliceId}, 'alice', 'auth', 'auth.login_succeeded', 'alice', '{}')`);
  });

  const exportOf = (cookie: string, query: Record<string, string | string[]>) =>
    t.request('GET', '/api/v1/activity_log/export', { cookie, query });

  it('exports the filter as CSV: header, quoting, no formulas, an attachment', async () => {
    const res = await exportOf(admin, { format: 'csv', sort: 'timestamp' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="activity-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(res.body).toContain(`,'=cmd|' /C calc'!A0,`);
    // The details JSON is one quoted cell; its line break stays inside the quotes.
    expect(res.body).toContain('"{""note"":""a, \\""b\\""\\nc""}"');
    expect(res.body.endsWith('\r\n')).toBe(true);
    // Header, two rows, the export's own record, and the empty string after the last CRLF.
    expect(lines).toHaveLength(5);
    expect(lines[2]).toContain(',alice,');
  });

  it('exports JSON lines with the entries the list returns, scoped to the caller', async () => {
    const res = await exportOf(alice, { format: 'jsonl' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/filename="activity-log-.*\.jsonl"/);
    const entries = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const list = (await t.request('GET', '/api/v1/activity_log', { cookie: alice })).json();
    expect(entries).toEqual(list.items);
    // The export is recorded before it is read, so it lists itself.
    expect(entries.map((e: { event: string }) => e.event)).toEqual(['activity_log.exported', 'auth.login_succeeded']);
  });

  it('streams every matching row across pages, ties included, and records the export', async () => {
    await t.database.db.execute(sql`insert into events (occurred_at, actor_type, module, type, object_name)
      select '2026-02-01T00:00:00Z'::timestamptz + (g / 7) * interval '1 microsecond', 'system', 'gateways', 'gateway.connected', 'gw' || g
      from generate_series(1, 2500) g`);
    const res = await exportOf(admin, { format: 'jsonl', module: 'gateways' });
    const ids = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).id as number);
    expect(ids).toHaveLength(2500);
    expect(new Set(ids).size).toBe(2500);
    const [rec] = await queryRows<{
      username: string;
      details: Record<string, unknown>;
    }>(t.database.db, sql`select username, details from events where type = 'activity_log.exported'`);
    expect(rec).toMatchObject({ username: 'admin', details: { format: 'jsonl', filter: { module: ['gateways'] } } });
  });

  it('refuses a bad filter before sending anything', async () => {
    for (const query of <Record<string, string>[]>[{ format: 'xlsx' }, { from: 'soon' }, { module: 'nope' }, { page: '2' }]) {
      expect(problemOf(await exportOf(admin, query)).status, JSON.stringify(query)).toBe(400);
    }
  });
});
