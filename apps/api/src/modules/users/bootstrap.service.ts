import { randomBytes } from 'node:crypto';
import type { Db } from '#src/db/client.js';
import { hashPassword } from '#src/lib/password.js';
import { GroupsRepo } from '#src/modules/groups/groups.repo.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { UsersRepo } from './users.repo.js';

export interface BootstrapResult {
  createdAdmin: boolean;
  /** Set only when the password was generated (ADMIN_PASSWORD absent): shown once. */
  generatedPassword?: string;
}

/** A random password that satisfies the spec's strength rules. */
export function generatePassword(): string {
  return `${randomBytes(15).toString('base64url')}-A7a`;
}

/**
 * First start: the settings row, group `admin` (admin flag) and user `admin` in it. Runs in one
 * transaction under an advisory lock, so two processes starting together create them once.
 */
export async function bootstrap(db: Db, adminPassword: string | undefined): Promise<BootstrapResult> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const users = new UsersRepo(tx);
    await users.lockAdminInvariant();
    await new SettingsRepo(tx).ensure();
    if ((await users.count()) > 0) return { createdAdmin: false };
    const groups = new GroupsRepo(tx);
    const group = (await groups.findByName('admin')) ?? (await groups.insert('admin', true));
    const password = adminPassword ?? generatePassword();
    const admin = await users.insert({
      username: 'admin',
      firstName: 'Palisade',
      lastName: 'Administrator',
      email: 'admin@palisade.local',
      passwordHash: await hashPassword(password),
    });
    await groups.addMembers([{ groupId: group.id, userId: admin.id }]);
    return { createdAdmin: true, ...(adminPassword ? {} : { generatedPassword: password }) };
  });
}
