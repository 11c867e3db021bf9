import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { isoTimestamp, preparedRows, TIMESTAMPS_AS_TEXT } from './rows.js';

describe('preparedRows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('builds the text once and binds each call its own values; inside a transaction it runs as a plain query', async () => {
    let builds = 0;
    const run = preparedRows<{ v: number; s: string }, 'a' | 'b'>((p) => {
      builds++;
      return sql`select ${p.a}::int + 1 as v, ${p.b}::text || ${p.b}::text as s`;
    });
    expect(await run(t.database.db, { a: 1, b: 'x' })).toEqual([{ v: 2, s: 'xx' }]);
    expect(await run(t.database.db, { a: 41, b: 'y' })).toEqual([{ v: 42, s: 'yy' }]);
    expect(builds).toBe(1);
    const inTransaction = await t.database.db.transaction((tx) => run(tx, { a: 9, b: 'z' }));
    expect(inTransaction).toEqual([{ v: 10, s: 'zz' }]);
  });

  it('reads timestamps as text with TIMESTAMPS_AS_TEXT, which isoTimestamp turns into the same ISO strings', async () => {
    const stamps = preparedRows<{ t: string; d: string }, 'base'>(
      (p) => sql`select ts as t, to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as d
        from (select ${p.base}::timestamptz + (i * interval '1.001001 second') as ts from generate_series(0, 40) i) x`,
      { types: TIMESTAMPS_AS_TEXT },
    );
    const rows = await stamps(t.database.db, { base: '2026-11-24T08:00:00.5Z' });
    expect(rows).toHaveLength(41);
    for (const row of rows) {
      expect(typeof row.t).toBe('string');
      expect(isoTimestamp(row.t)).toBe(row.d);
    }
  });
});
