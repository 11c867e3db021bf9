import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { queryRows } from './rows.js';

describe('queryRows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('runs a prepared statement repeatedly with different parameters', async () => {
    for (const n of [1, 2, 3, 40, 5, 6, 7]) {
      const [row] = await queryRows<{ v: number }>(t.database.db, sql`select ${n}::int * 2 as v`);
      expect(row?.v).toBe(n * 2);
    }
  });

  it("inside a transaction, runs on the transaction's connection (sees its uncommitted writes)", async () => {
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into row_counts (name, n) values ('rows-test', 7)`);
        const seen = await queryRows<{ n: string }>(tx as never, sql`select n from row_counts where name = 'rows-test'`);
        expect(seen.map((r) => Number(r.n))).toEqual([7]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await queryRows(t.database.db, sql`select n from row_counts where name = 'rows-test'`)).toEqual([]);
  });
});
