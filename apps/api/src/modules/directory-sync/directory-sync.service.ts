import type { DirectorySyncTestResult } from '@palisade/contracts';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import type { DatabaseHandle, Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { DirectorySyncRepo, type ProviderRow } from './directory-sync.repo.js';
import { createDirectoryClient, type DirectoryEndpoints, supportsDirectorySync } from './providers/create-directory-client.js';
import { type DirectoryClient, DirectoryError } from './providers/directory-client.js';
import { runDirectorySync } from './sync-run.js';
import { matchesGroup, SYNC_ACTOR, type SyncSettings, type SyncSummary } from './sync-types.js';

const notConfigured = () =>
  new HttpProblem(
    400,
    'directory_sync.not_configured',
    'Directory sync needs a Google, Microsoft, Okta or JumpCloud provider with its directory credentials.',
  );

function unseal(secrets: SecretBox, sealed: string | null, what: string): string | undefined {
  if (!sealed) return undefined;
  try {
    return secrets.decrypt(sealed);
  } catch {
    throw new DirectoryError(`The stored ${what} cannot be read (was the instance secret key changed?)`);
  }
}

const settingsOf = (row: ProviderRow): SyncSettings => ({
  provider: row.name,
  target: row.syncTarget,
  userBehavior: row.userBehavior,
  adminBehavior: row.adminBehavior,
  groupMatch: row.groupMatch,
});

/** What a job tick did: nothing due, another replica syncing, a run, or a failed run. */
export type SyncOutcome =
  | { state: 'idle' }
  | { state: 'busy' }
  | { state: 'done'; summary: SyncSummary }
  | { state: 'failed'; reason: string };

/**
 * Directory sync of the configured external provider (docs/directory-sync.md): the connection
 * test behind `GET /test_directory_sync`, and the runs of the job.
 */
export class DirectorySyncService {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly secrets: SecretBox,
    private readonly endpoints: DirectoryEndpoints = {},
  ) {}

  #client(row: ProviderRow): DirectoryClient {
    return createDirectoryClient(
      {
        kind: row.kind,
        baseUrl: row.baseUrl,
        clientId: row.clientId,
        clientSecret: unseal(this.secrets, row.clientSecret, 'client secret'),
        adminEmail: row.adminEmail,
        googleServiceAccountKey: unseal(this.secrets, row.googleServiceAccountKey, 'service account key file'),
        oktaClientId: row.oktaClientId,
        oktaPrivateJwk: unseal(this.secrets, row.oktaPrivateJwk, 'Okta private key'),
        jumpcloudApiKey: unseal(this.secrets, row.jumpcloudApiKey, 'JumpCloud API key'),
      },
      this.endpoints,
    );
  }

  /** Reads the directory with the saved settings: 400 `directory_sync.failed` with the reason. */
  async test(): Promise<DirectorySyncTestResult> {
    const row = await new DirectorySyncRepo(this.database.db).findProvider();
    if (!row || !supportsDirectorySync(row.kind)) throw notConfigured();
    try {
      const client = this.#client(row);
      const users = await client.listUsers();
      const groups = (await client.listGroups()).filter((g) => matchesGroup(row.groupMatch, g.name));
      return { success: true, users: users.length, groups: groups.length };
    } catch (error) {
      if (error instanceof DirectoryError) throw new HttpProblem(400, 'directory_sync.failed', `Directory sync failed: ${error.message}`);
      throw error;
    }
  }

  /**
   * A run when one is due: the provider syncs (enable_directory_sync, a directory kind) and its
   * last run ended at least sync_interval seconds ago (`force` skips that wait). One replica at a
   * time: a session advisory try-lock on a dedicated connection spans the run.
   */
  async runIfDue(now = new Date(), force = false): Promise<SyncOutcome> {
    return this.database.withConnection(async (conn) => {
      const lock = new DirectorySyncRepo(conn);
      if (!(await lock.tryLock(ADVISORY_LOCKS.directorySync))) return { state: 'busy' };
      try {
        return await this.#runLocked(now, force);
      } finally {
        await lock.unlock(ADVISORY_LOCKS.directorySync);
      }
    });
  }

  async #runLocked(now: Date, force: boolean): Promise<SyncOutcome> {
    const db: Db = this.database.db;
    const repo = new DirectorySyncRepo(db);
    const row = await repo.findProvider();
    if (!row?.enableDirectorySync || !supportsDirectorySync(row.kind)) return { state: 'idle' };
    const last = await repo.lastRunAt();
    if (!force && last && now.getTime() - last.getTime() < row.syncInterval * 1000) return { state: 'idle' };
    try {
      return { state: 'done', summary: await runDirectorySync(db, this.#client(row), settingsOf(row)) };
    } catch (error) {
      if (!(error instanceof DirectoryError)) throw error;
      await recordEvent(db, {
        type: 'directory.sync_failed',
        actor: SYNC_ACTOR,
        object: { type: 'external_provider', name: row.name },
        details: { reason: error.message },
      });
      return { state: 'failed', reason: error.message };
    }
  }
}
