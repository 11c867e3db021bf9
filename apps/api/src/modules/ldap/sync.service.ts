import type { LdapSyncChange, LdapSyncResult } from '@palisade/contracts';
import type { Client } from 'ldapts';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import type { DatabaseHandle } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import type { EventActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { bindServiceUser, connectionRejected, ldapFailureReason } from './ldap-client.js';
import { type LdapConfig, loadLdapConfig } from './ldap-config.js';
import { applyLdapChanges } from './sync-apply-ldap.js';
import { type ApplyOutcome, applyPalisadeChanges } from './sync-apply-palisade.js';
import { readLdapDirectory } from './sync-ldap-read.js';
import type { LdapChange, PalisadeChange, SyncChange, SyncConfig } from './sync-model.js';
import { planSync } from './sync-plan.js';
import { SyncRepo } from './sync.repo.js';

/** What a run did, beyond the contract's result: the LDAP operations it sent (the bench counts them). */
export interface SyncRunReport extends LdapSyncResult {
  ldapWrites: number;
}

const FIELD_NAMES = { username: 'username', firstName: 'first_name', lastName: 'last_name', email: 'email', phone: 'phone' } as const;

/** A change as the API shows it (names, never attribute values). */
export function describeChange(change: SyncChange): LdapSyncChange {
  const base = { side: change.side, kind: change.kind };
  switch (change.kind) {
    case 'create_user':
      return { ...base, username: change.user.username, dn: change.dn };
    case 'update_user':
      return {
        ...base,
        username: change.username,
        ...('dn' in change ? { dn: change.dn } : {}),
        fields: Object.keys(change.set).map((k) => FIELD_NAMES[k as keyof typeof FIELD_NAMES]),
      };
    case 'rename_user':
      return { ...base, username: change.username, dn: change.dn, new_dn: change.newDn };
    case 'create_group':
      return { ...base, group: change.group };
    case 'add_member':
    case 'remove_member':
      return { ...base, group: change.group, username: change.username };
    default:
      return { ...base, username: change.username, ...('dn' in change ? { dn: change.dn } : {}) };
  }
}

export function toSyncConfig(config: LdapConfig): SyncConfig {
  return {
    authority: config.authoritativeSource,
    removedUserBehavior: config.removedUserBehavior,
    syncGroups: config.syncGroups,
    userRdnAttr: config.userRdnAttr,
    usernameAttr: config.usernameAttr,
    userSearchBase: config.userSearchBase,
    ldapHasDisabledState: config.usesAd,
  };
}

/**
 * LDAP sync runs (docs/ldap.md → Sync): reads both sides, plans with the authority rule, applies
 * (unless a dry run) and records `ldap.sync_completed`. One run at a time across API instances: a
 * PostgreSQL session advisory lock held for the run (and a flag within this process, where one
 * embedded database connection would let the same session take the lock twice).
 */
/** How a run reaches the directory: bound as the configured service user. */
export type LdapConnector = (config: LdapConfig) => Promise<Client>;

/** Databases with a run going in this process. */
const runningIn = new WeakSet<DatabaseHandle>();

export class LdapSyncService {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly secrets: SecretBox | undefined,
    private readonly connect: LdapConnector = bindServiceUser,
  ) {}

  async run(actor: EventActor, options: { dryRun: boolean }): Promise<SyncRunReport> {
    const config = await loadLdapConfig(this.database.db, this.secrets);
    if (!config.enabled) throw new HttpProblem(409, 'ldap.not_enabled', 'LDAP is not enabled.');
    if (runningIn.has(this.database)) throw running();
    runningIn.add(this.database);
    try {
      return await this.database.withConnection(async (conn) => {
        const locked = await new SyncRepo(conn).tryLock(ADVISORY_LOCKS.ldapSync);
        if (!locked) throw running();
        try {
          return await this.#runLocked(config, actor, options.dryRun);
        } finally {
          await new SyncRepo(conn).unlock(ADVISORY_LOCKS.ldapSync);
        }
      });
    } finally {
      runningIn.delete(this.database);
    }
  }

  async #runLocked(config: LdapConfig, actor: EventActor, dryRun: boolean): Promise<SyncRunReport> {
    let client: Client;
    try {
      client = await this.connect(config);
    } catch (error) {
      throw connectionRejected(ldapFailureReason(error));
    }
    try {
      const directory = await readLdapDirectory(client, config);
      const palisade = await new SyncRepo(this.database.db).readPalisadeSide();
      const plan = planSync(directory.side, palisade, toSyncConfig(config));
      const result = {
        dry_run: dryRun,
        authoritative_source: config.authoritativeSource,
        changes: plan.changes.map(describeChange),
        skipped: plan.skipped,
      };
      if (dryRun) return { ...result, ldapWrites: 0 };
      const ldapChanges = plan.changes.filter((c): c is LdapChange => c.side === 'ldap');
      // LDAP first: a Palisade account is linked to an entry only once the entry exists.
      const ldapOutcome = await applyLdapChanges(client, config, directory, ldapChanges);
      const palisadeChanges = plan.changes.filter((c): c is PalisadeChange => c.side === 'palisade');
      const palisadeOutcome = await applyPalisadeChanges(this.database.db, actor, palisadeChanges);
      const outcome: ApplyOutcome = {
        applied: ldapOutcome.applied + palisadeOutcome.applied,
        failed: [...ldapOutcome.failed, ...palisadeOutcome.failed],
      };
      await recordEvent(this.database.db, {
        type: 'ldap.sync_completed',
        actor,
        object: { type: 'settings', name: 'ldap' },
        details: {
          authoritative_source: config.authoritativeSource,
          planned: plan.changes.length,
          applied: outcome.applied,
          failed: outcome.failed.length,
          skipped: plan.skipped.length,
          ldap_writes: ldapOutcome.writes,
        },
      });
      const failed = outcome.failed.map((f) => ({ change: describeChange(f.change), code: f.code, message: f.message }));
      return { ...result, applied: outcome.applied, failed, ldapWrites: ldapOutcome.writes };
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}

const running = () => new HttpProblem(409, 'ldap.sync_running', 'An LDAP sync is already running.');
