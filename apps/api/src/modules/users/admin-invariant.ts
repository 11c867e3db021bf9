import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { UsersRepo } from './users.repo.js';

/**
 * Runs `change` in a transaction that fails (and rolls back) when it would leave no active admin.
 * The advisory lock serialises such changes, so two concurrent demotions cannot both pass.
 */
export async function withAdminInvariant<T>(db: Db, change: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const repo = new UsersRepo(tx);
    await repo.lockAdminInvariant();
    const result = await change(tx);
    if ((await repo.countActiveAdmins()) === 0) {
      throw new HttpProblem(409, 'user.last_admin', 'The last active administrator cannot be removed, disabled or demoted.');
    }
    return result;
  });
}
