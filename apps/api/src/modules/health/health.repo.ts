import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';

export class HealthRepo {
  constructor(private readonly db: Db) {}

  async ping(): Promise<void> {
    await this.db.execute(sql`select 1`);
  }
}
