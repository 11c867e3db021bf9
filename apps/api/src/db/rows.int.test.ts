import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { preparedRows } from './rows.js';

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
});
